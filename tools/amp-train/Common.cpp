//===- Common.cpp - what every part of amp-train shares -------------------===//

#include "Common.h"

#include <cstdio>
#include <cstdlib>

void amp_train::fail(const std::string &message) {
  std::fprintf(stderr, "amp-train: error: %s\n", message.c_str());
  std::exit(1);
}
