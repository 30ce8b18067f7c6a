//===- report.h - error messages into a caller's buffer ---------*- C++ -*-===//

#ifndef AMPRT_REPORT_H
#define AMPRT_REPORT_H

#include <cstdarg>
#include <cstddef>
#include <cstdio>

namespace amprt {

/// Writes a printf-style message into a caller's error buffer (the
/// `error, error_size` pair of the C API); nothing when there is none.
__attribute__((format(printf, 3, 4))) inline void
report(char *error, size_t size, const char *format, ...) {
  if (!error || size == 0)
    return;
  va_list args;
  va_start(args, format);
  std::vsnprintf(error, size, format, args);
  va_end(args);
}

} // namespace amprt

#endif // AMPRT_REPORT_H
