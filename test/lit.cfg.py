# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "AMP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.amp_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%amp_src_root", config.amp_src_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# amp-train caches compiled models: the tests use their own cache.
config.environment["AMP_MLIR_CACHE_DIR"] = os.path.join(config.amp_obj_root, "test", "amp-train-cache")
llvm_config.use_default_substitutions()

mlir_lib_dir = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
config.substitutions.append(("%mlir_c_runner_utils",
                             os.path.join(mlir_lib_dir, "libmlir_c_runner_utils.so")))
# Executed steps are lowered by amp-opt --amp-lower-to-cpu, whose GEMMs
# call libamprt.
config.substitutions.append(("%amprt",
                             os.path.join(config.amp_obj_root, "lib", "libamprt.so")))
config.substitutions.append(("%mlir_runner_utils",
                             os.path.join(mlir_lib_dir, "libmlir_runner_utils.so")))

tool_dirs = [config.amp_tools_dir, config.llvm_tools_dir]
tools = ["amp-opt", "amp-compile", "amp-train", "amp-capi-test", "split-file",
         "mlir-runner", "not", "count",
         ToolSubst("mlir-opt", "mlir-opt", unresolved="ignore")]
llvm_config.add_tool_substitutions(tools, tool_dirs)

config.substitutions.append(("%check_train", "python3 " + os.path.join(
    config.amp_src_root, "test", "Integration", "CPU", "Inputs", "check_train.py")))
config.substitutions.append(("%check_contract", "/usr/bin/python3 " + os.path.join(
    config.amp_src_root, "test", "Runtime", "Inputs", "check_contract.py")))
config.substitutions.append(("%python", "python3"))
config.substitutions.append(("%examples", os.path.join(config.amp_src_root, "examples")))

# GoogleTest unit tests, built when Debian's libgtest-dev is installed.
if os.path.exists(os.path.join(config.amp_obj_root, "bin", "amp-train-unittests")):
    config.available_features.add("gtest")

# Real data for the training tests: Debian's dataset-fashion-mnist.
if os.path.exists("/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"):
    config.available_features.add("fashion-mnist")

# Embedding: our plugin in Debian's own mlir-opt-22, and the C API test.
import shutil
config.substitutions.append(("%mlir_opt_22",
                             shutil.which("mlir-opt-22") or "/usr/bin/mlir-opt-22"))
config.substitutions.append(("%amp_plugin",
                             os.path.join(config.amp_obj_root, "lib", "libAMPPlugin.so")))
config.substitutions.append(("%amp_obj_root", config.amp_obj_root))

# The CUDA path compiles kernels with the CUDA toolkit's ptxas/fatbinary
# (found by MLIR under /usr/local/cuda); running them needs a GPU.
if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("cuda-toolkit")


def has_cuda_device():
    """A driver that initializes and sees at least one GPU."""
    import ctypes
    try:
        driver = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        return (driver.cuInit(0) == 0 and
                driver.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0)
    except OSError:
        return False


if os.path.exists(os.path.join(config.amp_obj_root, "lib", "libamprt_cuda.so")):
    config.available_features.add("cuda-runtime")
if has_cuda_device():
    config.available_features.add("cuda-device")

# The PyTorch front end (torch 2.x + torch-mlir) is tested in the venv
# scripts/install-torch2.sh makes; "torch-models" adds torchvision, timm and
# transformers for the real-model tests.
import subprocess


def python_with_torch(python, feature, check):
    try:
        subprocess.run([python, "-c", check], check=True, capture_output=True,
                       timeout=300)
        config.available_features.add(feature)
    except Exception:
        pass
    return python


torch2_python = python_with_torch(
    os.environ.get("AMP_TORCH2_PYTHON", "/opt/amp-mlir/torch2/bin/python"), "torch2",
    "import torch, torch_mlir.fx; assert torch.__version__.startswith('2.')")
python_with_torch(torch2_python, "torch-models", "import torchvision, timm, transformers")
config.substitutions.append(("%torch2_python", torch2_python))
# Data-parallel runs need Open MPI's launcher (Debian's openmpi-bin).
import shutil
if shutil.which("mpirun"):
    config.available_features.add("mpi")
# More ranks than cores, as root where CI runs, without CMA (containers
# forbid the cross-memory attach Open MPI tries first).
mpirun = ("mpirun --oversubscribe --bind-to none "
          "--mca btl_vader_single_copy_mechanism none")
if os.geteuid() == 0:
    mpirun += " --allow-run-as-root"
config.substitutions.append(("%mpirun", mpirun))
# libamprt_nccl and its simulated NCCL (test/Runtime/nccl_mock.cpp) are
# built where the CUDA toolkit's nccl.h and MPI are.
if os.path.exists(os.path.join(config.amp_obj_root, "lib", "libnccl-mock.so")):
    config.available_features.add("nccl-mock")
