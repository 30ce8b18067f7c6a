//===- onednn.h - the oneDNN engine libamprt's kernels share ----*- C++ -*-===//

#ifndef AMPRT_ONEDNN_H
#define AMPRT_ONEDNN_H

#include <dnnl.hpp>

namespace amprt {

/// The CPU engine every primitive of the process is made for.
inline dnnl::engine &cpuEngine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

/// This thread's stream on it (primitives run synchronously on the CPU).
inline dnnl::stream &cpuStream() {
  thread_local dnnl::stream stream(cpuEngine());
  return stream;
}

} // namespace amprt

#endif // AMPRT_ONEDNN_H
