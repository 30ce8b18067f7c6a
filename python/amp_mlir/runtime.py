"""Compile an exported step with amp-compile and run it through libamprt.

Finds amp-compile and libamprt.so from $AMP_MLIR_BUILD (default: the
build/ folder of this checkout).
"""
import ctypes
import os
import subprocess
import tempfile

import numpy as np

from .export import export_training_step

_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_build = os.environ.get("AMP_MLIR_BUILD", os.path.join(_root, "build"))

# The values of runtime/include/amp_artifact.h this module uses (checked
# against the header by test/Runtime/contract.test).
ENUMS = {
    "AMP_ARTIFACT_ABI_VERSION": 2,
    "AMP_F32": 0, "AMP_F16": 1, "AMP_I32": 3, "AMP_I1": 4,
    "AMP_ROLE_DATA": 0, "AMP_ROLE_PARAM": 1, "AMP_ROLE_STATE": 2,
    "AMP_ROLE_LOSS": 7, "AMP_ROLE_UPDATE": 8,
}
ROLE_DATA, ROLE_PARAM, ROLE_STATE, ROLE_LOSS, ROLE_UPDATE = (
    ENUMS[f"AMP_ROLE_{name}"] for name in ("DATA", "PARAM", "STATE", "LOSS", "UPDATE"))
_DTYPES = {ENUMS["AMP_F32"]: np.float32, ENUMS["AMP_F16"]: np.float16,
           ENUMS["AMP_I32"]: np.int32, ENUMS["AMP_I1"]: np.uint8}


class _Tensor(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("role", ctypes.c_int),
                ("target", ctypes.c_int32), ("rank", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64))]


class _Function(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("num_args", ctypes.c_int32),
                ("args", ctypes.POINTER(_Tensor)), ("num_results", ctypes.c_int32),
                ("results", ctypes.POINTER(_Tensor)), ("initial_scale", ctypes.c_float),
                ("initial_hysteresis", ctypes.c_int32), ("call", ctypes.c_void_p)]


def _library():
    lib = ctypes.CDLL(os.path.join(_build, "lib", "libamprt.so"), mode=ctypes.RTLD_GLOBAL)
    lib.amprt_load.restype = ctypes.c_void_p
    lib.amprt_load.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.amprt_session_create.restype = ctypes.c_void_p
    lib.amprt_session_create.argtypes = [ctypes.c_void_p, ctypes.c_uint64,
                                         ctypes.c_char_p, ctypes.c_size_t]
    lib.amprt_session_step_info.restype = ctypes.POINTER(_Function)
    lib.amprt_session_step_info.argtypes = [ctypes.c_void_p]
    lib.amprt_session_step.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.amprt_session_argument.restype = ctypes.c_void_p
    lib.amprt_session_argument.argtypes = [ctypes.c_void_p, ctypes.c_int32]
    for name in ("amprt_session_loss", "amprt_session_scale"):
        getattr(lib, name).restype = ctypes.c_float
        getattr(lib, name).argtypes = [ctypes.c_void_p]
    for name in ("amprt_session_found_inf",):
        getattr(lib, name).argtypes = [ctypes.c_void_p]
    lib.amprt_session_destroy.argtypes = [ctypes.c_void_p]
    lib.amprt_unload.argtypes = [ctypes.c_void_p]
    lib.amprt_set_num_threads.argtypes = [ctypes.c_int]
    lib.amprt_num_threads.restype = ctypes.c_int
    return lib


def set_num_threads(threads):
    """Threads of the compiled steps' GEMMs and convolutions (oneDNN's
    OpenMP and OpenBLAS), for every trainer of this process; all cores (or
    OMP_NUM_THREADS) by default."""
    if int(threads) < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    _library().amprt_set_num_threads(int(threads))


def get_num_threads():
    return int(_library().amprt_num_threads())


class Trainer:
    """A compiled training step with its state (params, optimizer, scaler)."""

    def __init__(self, artifact, params):
        self._lib = _library()
        error = ctypes.create_string_buffer(512)
        self._artifact = self._lib.amprt_load(artifact.encode(), error, 512)
        if not self._artifact:
            raise RuntimeError(error.value.decode())
        self._session = self._lib.amprt_session_create(self._artifact, 0, error, 512)
        if not self._session:
            raise RuntimeError(error.value.decode())
        info = self._lib.amprt_session_step_info(self._session).contents
        self._args = [info.args[i] for i in range(info.num_args)]
        self._params = [i for i, a in enumerate(self._args) if a.role == ROLE_PARAM]
        self._data_dtypes = [_DTYPES[a.dtype] for a in self._args if a.role == ROLE_DATA]
        if len(self._params) != len(params):
            raise ValueError("the artifact's params do not match the model's")
        for index, value in zip(self._params, params):
            self._view(index)[...] = value

    def _view(self, index):
        arg = self._args[index]
        shape = tuple(arg.shape[d] for d in range(arg.rank))
        count = int(np.prod(shape)) if shape else 1
        dtype = _DTYPES[arg.dtype]
        pointer = self._lib.amprt_session_argument(self._session, index)
        buffer = (ctypes.c_char * (count * np.dtype(dtype).itemsize)).from_address(pointer)
        return np.frombuffer(buffer, dtype=dtype).reshape(shape)

    def step(self, x, y):
        """One training step on a batch (images or token ids, one-hot
        labels); returns the loss."""
        data = [np.ascontiguousarray(np.asarray(v, dtype=dtype))
                for v, dtype in zip((x, y), self._data_dtypes)]
        pointers = (ctypes.c_void_p * 2)(*[d.ctypes.data for d in data])
        self._lib.amprt_session_step(self._session, pointers)
        return float(self._lib.amprt_session_loss(self._session))

    @property
    def found_inf(self):
        return bool(self._lib.amprt_session_found_inf(self._session))

    @property
    def scale(self):
        return float(self._lib.amprt_session_scale(self._session))

    def parameters(self):
        """Copies of the current f32 master weights, in model order."""
        return [self._view(i).copy() for i in self._params]

    def __del__(self):
        if getattr(self, "_session", None):
            self._lib.amprt_session_destroy(self._session)
            self._lib.amprt_unload(self._artifact)


def compile(model, loss_fn, optimizer, x, y, precision="f32", amp_options="",
            workdir=None, target="cpu"):
    """Exports `model`'s training step, compiles it for `target` ("cpu", or
    "cuda": needs an NVIDIA GPU and driver to run) and returns a Trainer
    starting from the model's current parameters."""
    workdir = workdir or tempfile.mkdtemp(prefix="amp_mlir-")
    source = os.path.join(workdir, "step.mlir")
    with open(source, "w") as f:
        f.write(export_training_step(model, loss_fn, optimizer, x, y))
    artifact = os.path.join(workdir, f"step-{precision}.so")
    command = [os.path.join(_build, "bin", "amp-compile"), source, "-o", artifact,
               f"--precision={precision}", f"--target={target}"]
    if amp_options:
        command.append(f"--amp-options={amp_options}")
    subprocess.run(command, check=True)
    params = [p.detach().cpu().numpy() for _, p in model.named_parameters()]
    return Trainer(artifact, params)
