"""Compile an exported step with amp-compile and run it through libamprt.

Finds amp-compile and libamprt.so from $AMP_MLIR_BUILD (default: the
build/ folder of this checkout).
"""
import atexit
import ctypes
import os
import subprocess
import tempfile

import numpy as np

from .export import build_training_step

_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_build = os.environ.get("AMP_MLIR_BUILD", os.path.join(_root, "build"))

# The values of runtime/include/amp_artifact.h this module uses (checked
# against the header by test/Runtime/contract.test).
ENUMS = {
    "AMP_ARTIFACT_ABI_VERSION": 6,
    "AMP_F32": 0, "AMP_F16": 1, "AMP_I32": 3, "AMP_I1": 4, "AMP_I64": 6,
    "AMP_ROLE_DATA": 0, "AMP_ROLE_PARAM": 1, "AMP_ROLE_STATE": 2,
    "AMP_ROLE_LOSS": 7, "AMP_ROLE_UPDATE": 8,
}
ROLE_DATA, ROLE_PARAM, ROLE_STATE, ROLE_LOSS, ROLE_UPDATE = (
    ENUMS[f"AMP_ROLE_{name}"] for name in ("DATA", "PARAM", "STATE", "LOSS", "UPDATE"))
_DTYPES = {ENUMS["AMP_F32"]: np.float32, ENUMS["AMP_F16"]: np.float16,
           ENUMS["AMP_I32"]: np.int32, ENUMS["AMP_I1"]: np.bool_,
           ENUMS["AMP_I64"]: np.int64}


class _Tensor(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("role", ctypes.c_int),
                ("target", ctypes.c_int32), ("rank", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("name", ctypes.c_char_p),
                ("in_place", ctypes.c_int32)]


class _Function(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("num_args", ctypes.c_int32),
                ("args", ctypes.POINTER(_Tensor)), ("num_results", ctypes.c_int32),
                ("results", ctypes.POINTER(_Tensor)), ("initial_scale", ctypes.c_float),
                ("initial_hysteresis", ctypes.c_int32), ("call", ctypes.c_void_p),
                ("workspace_bytes", ctypes.c_uint64), ("init_workspace", ctypes.c_void_p)]


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
    for name in ("amprt_session_save", "amprt_session_load"):
        getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                       ctypes.c_char_p, ctypes.c_size_t]
    lib.amprt_session_destroy.argtypes = [ctypes.c_void_p]
    lib.amprt_unload.argtypes = [ctypes.c_void_p]
    lib.amprt_set_num_threads.argtypes = [ctypes.c_int]
    lib.amprt_num_threads.restype = ctypes.c_int
    lib.amprt_comm_init.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.amprt_comm_backend.restype = ctypes.c_char_p
    lib.amprt_dtype_size.restype = ctypes.c_size_t
    lib.amprt_dtype_size.argtypes = [ctypes.c_int]
    lib.amprt_comm_all_reduce.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int,
                                          ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
    lib.amprt_comm_broadcast.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int,
                                         ctypes.c_char_p, ctypes.c_size_t]
    return lib


# amprt_comm.h's reductions.
_REDUCTIONS = {"sum": 0, "mean": 1, "max": 2}
_COMM_DTYPES = {np.dtype(np.float32): ENUMS["AMP_F32"], np.dtype(np.float16): ENUMS["AMP_F16"],
                np.dtype(np.int32): ENUMS["AMP_I32"], np.dtype(np.bool_): ENUMS["AMP_I1"]}


def init_data_parallel(backend="auto"):
    """Chooses the communicator of this process's data-parallel steps, once,
    before the first step: "mpi" (run the script under mpirun), "none" (one
    process), or "auto" (mpi when started by mpirun). Returns (rank,
    world_size). Steps compiled with data_parallel=True average their
    gradients over these ranks."""
    error = ctypes.create_string_buffer(512)
    lib = _library()
    if lib.amprt_comm_init(backend.encode(), error, 512) != 0:
        raise RuntimeError(error.value.decode())
    # MPI wants every rank to finalize before it exits.
    atexit.register(lib.amprt_comm_finalize)
    return rank(), world_size()


def rank():
    return int(_library().amprt_comm_rank())


def world_size():
    return int(_library().amprt_comm_size())


def shard(batch, dim=0):
    """This rank's part of a global batch: `world_size()` equal consecutive
    slices along `dim`, the rank's one (what a single process would train
    on, split the way amp-train splits it)."""
    size = batch.shape[dim]
    if size % world_size():
        raise ValueError(f"a global batch of {size} does not split into "
                         f"{world_size()} equal shards")
    per = size // world_size()
    index = [slice(None)] * batch.ndim
    index[dim] = slice(rank() * per, (rank() + 1) * per)
    return batch[tuple(index)]


def all_reduce(array, op="sum"):
    """Reduces a contiguous numpy array (float32, float16, int32 or bool)
    in place over all ranks: "sum", "mean" or "max"."""
    dtype = _COMM_DTYPES.get(array.dtype)
    if dtype is None or not array.flags.c_contiguous or op not in _REDUCTIONS:
        raise ValueError(f"cannot all-reduce a {array.dtype} array with '{op}'")
    error = ctypes.create_string_buffer(512)
    if _library().amprt_comm_all_reduce(array.ctypes.data, array.size, dtype,
                                        _REDUCTIONS[op], error, 512) != 0:
        raise RuntimeError(error.value.decode())
    return array


def broadcast(array, root=0):
    """Overwrites a contiguous numpy array with rank `root`'s, on every
    rank."""
    if not array.flags.c_contiguous:
        raise ValueError("broadcast needs a contiguous array")
    error = ctypes.create_string_buffer(512)
    if _library().amprt_comm_broadcast(array.ctypes.data, array.nbytes, root, error,
                                       512) != 0:
        raise RuntimeError(error.value.decode())
    return array


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
    """A compiled training step with its state (params, optimizer, scaler,
    buffers)."""

    def __init__(self, artifact, params, state=None):
        """`params`: initial values of the step's params, in order; `state`:
        initial values of its amp.state arguments (optimizer state, then
        buffers such as batch-norm statistics), in order; zeros when None."""
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
        self._state = [i for i, a in enumerate(self._args) if a.role == ROLE_STATE]
        self._data = [i for i, a in enumerate(self._args) if a.role == ROLE_DATA]
        self._set(self._params, params, "params")
        if state is not None:
            self._set(self._state, state, "state tensors")

    @property
    def input_names(self):
        """The names of the step's data arguments, in the order step()
        takes them (export_training_step's input_names)."""
        return [self._args[i].name.decode() for i in self._data]

    @property
    def param_names(self):
        """The names of the params, in the order parameters() returns them."""
        return [self._args[i].name.decode() for i in self._params]

    @property
    def state_names(self):
        """The names of the amp.state arguments, in the order state()
        returns them."""
        return [self._args[i].name.decode() for i in self._state]

    def _shape(self, index):
        arg = self._args[index]
        return tuple(arg.shape[d] for d in range(arg.rank))

    def _set(self, indices, values, what):
        values = list(values)
        if len(values) != len(indices):
            raise ValueError(f"the artifact's step has {len(indices)} {what}, "
                             f"got {len(values)}")
        for index, value in zip(indices, values):
            value = np.asarray(value)
            if value.shape != self._shape(index):
                raise ValueError(f"argument {index} has shape {self._shape(index)}, "
                                 f"got {value.shape}")
            self._view(index)[...] = value

    def _view(self, index):
        arg = self._args[index]
        shape = self._shape(index)
        count = int(np.prod(shape)) if shape else 1
        dtype = _DTYPES[arg.dtype]
        pointer = self._lib.amprt_session_argument(self._session, index)
        buffer = (ctypes.c_char * (count * np.dtype(dtype).itemsize)).from_address(pointer)
        return np.frombuffer(buffer, dtype=dtype).reshape(shape)

    def step(self, *inputs):
        """One training step on a batch: the step's data arguments in
        order (what the model and the loss take; the learning rate too when
        the step was exported with lr_input); returns the loss."""
        if len(inputs) != len(self._data):
            raise ValueError(f"the step takes {len(self._data)} data arguments, "
                             f"got {len(inputs)}")
        data = []
        for position, (value, index) in enumerate(zip(inputs, self._data)):
            arg = self._args[index]
            what = f"data argument {position} ('{arg.name.decode()}')"
            value = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
            if value.shape != self._shape(index):
                raise ValueError(f"{what} has shape {self._shape(index)}, got {value.shape}")
            dtype = _DTYPES[arg.dtype]
            if (np.issubdtype(dtype, np.floating) != np.issubdtype(value.dtype, np.floating)
                    or (dtype == np.bool_) != (value.dtype == np.bool_)):
                raise ValueError(f"{what} is {np.dtype(dtype).name}, got {value.dtype}")
            data.append(np.ascontiguousarray(value, dtype=dtype))
        pointers = (ctypes.c_void_p * len(data))(*[d.ctypes.data for d in data])
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

    def set_parameters(self, values):
        """Overwrites the f32 master weights, in model order (weights
        loaded elsewhere, say); the next step trains from them, f16/bf16
        working copies included."""
        self._set(self._params, values, "params")

    def state(self):
        """Copies of the current amp.state arguments, in order: the
        optimizer state (optim.state_names), then the buffers."""
        return [self._view(i).copy() for i in self._state]

    def replicate_from_root(self):
        """Copies rank 0's params, optimizer state, buffers and loss-scaler
        state to every rank (as DDP does when it wraps a module), so that the
        replicas start identical whatever each rank initialized."""
        for index, arg in enumerate(self._args):
            if arg.role != ROLE_DATA:
                shape = self._shape(index)
                count = int(np.prod(shape)) if shape else 1
                nbytes = count * self._lib.amprt_dtype_size(arg.dtype)
                pointer = self._lib.amprt_session_argument(self._session, index)
                error = ctypes.create_string_buffer(512)
                if self._lib.amprt_comm_broadcast(pointer, nbytes, 0, error, 512) != 0:
                    raise RuntimeError(error.value.decode())

    def save(self, path):
        """Writes a checkpoint of the whole session (params, optimizer and
        scaler state, buffers, step counters) atomically: `amp-train
        --resume=path` continues from it, as does load()."""
        error = ctypes.create_string_buffer(512)
        if self._lib.amprt_session_save(self._session, os.fsencode(path), error, 512) != 0:
            raise OSError(error.value.decode())

    def load(self, path):
        """Restores a checkpoint written by save() or `amp-train --save`
        for a step of the same signature; on a bad file raises and leaves
        the trainer as it was."""
        error = ctypes.create_string_buffer(512)
        if self._lib.amprt_session_load(self._session, os.fsencode(path), error, 512) != 0:
            raise OSError(error.value.decode())

    def __del__(self):
        if getattr(self, "_session", None):
            self._lib.amprt_session_destroy(self._session)
            self._lib.amprt_unload(self._artifact)


def compile(model, loss_fn, optimizer, *inputs, precision="f32", amp_options="",
            workdir=None, target="cpu", data_parallel=False, **export_options):
    """Exports `model`'s training step (see export_training_step, whose
    keyword options it takes), compiles it for `target` ("cpu", or "cuda":
    needs an NVIDIA GPU and driver to run) and returns a Trainer starting
    from the model's current parameters and buffers.

    With data_parallel=True the step averages its gradients over the ranks
    of init_data_parallel() (call it first; run the script under mpirun):
    `inputs` are one rank's shard (shard()), every rank runs the same steps
    on its own shard, and the trainer starts from rank 0's values."""
    workdir = workdir or tempfile.mkdtemp(prefix="amp_mlir-")
    os.makedirs(workdir, exist_ok=True)
    source = os.path.join(workdir, "step.mlir")
    text, layout = build_training_step(model, loss_fn, optimizer, *inputs, **export_options)
    with open(source, "w") as f:
        f.write(text)
    artifact = os.path.join(workdir, f"step-{precision}.so")
    command = [os.path.join(_build, "bin", "amp-compile"), source, "-o", artifact,
               f"--precision={precision}", f"--target={target}"]
    if amp_options:
        command.append(f"--amp-options={amp_options}")
    if data_parallel:
        command.append("--data-parallel")
    subprocess.run(command, check=True)
    params = [v.numpy() for v, k in zip(layout.initial, layout.kinds) if k == "param"]
    state = [v.numpy() for v, k in zip(layout.initial, layout.kinds)
             if k in ("state", "buffer")]
    trainer = Trainer(artifact, params, state)
    if data_parallel:
        trainer.replicate_from_root()
    return trainer
