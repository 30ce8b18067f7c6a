# find_package(AmpMLIR): amp-mlir's passes for a C++ MLIR compiler.
#
#   find_package(AmpMLIR REQUIRED)
#   add_executable(my-compiler main.cpp)
#   target_link_libraries(my-compiler PRIVATE AmpMLIR::AMPPipelines)
#
# Then call mlir::amp::registerAMPDialect(registry) and
# mlir::amp::registerAllAMPPasses() (amp/InitAMP.h). Targets: AMPDialect,
# AMPAnalysis, AMPTransforms, AMPConversion, AMPPipelines, AMPTarget,
# AMPCAPI (C API, amp-c/AMP.h) and amprt (the runtime). They link Debian's
# shared libMLIR/libLLVM, found here through MLIR's own package.

include(CMakeFindDependencyMacro)
if(NOT MLIR_DIR AND EXISTS /usr/lib/llvm-22/lib/cmake/mlir)
  set(MLIR_DIR /usr/lib/llvm-22/lib/cmake/mlir)
endif()
find_dependency(MLIR CONFIG)

include("${CMAKE_CURRENT_LIST_DIR}/AmpMLIRTargets.cmake")

get_filename_component(AMP_MLIR_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(AMP_MLIR_INCLUDE_DIRS "${AMP_MLIR_PREFIX}/include")
# Consumers also need MLIR's and LLVM's headers.
set_property(TARGET AmpMLIR::AMPDialect APPEND PROPERTY
  INTERFACE_INCLUDE_DIRECTORIES ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
