"""Checks the compiler/runtime/Python contract against its one source.

  check_contract.py gemms AMPRT_GEMM_DEF PREFIX LIBRARY
      every GEMM of amprt_gemm.def is exported by LIBRARY as
      _mlir_ciface_<PREFIX>_<NAME>, and LIBRARY exports no other such GEMM.
  check_contract.py rounding-gemms AMPRT_ROUNDING_GEMM_DEF LIBRARY
      the same for the bf16 GEMMs of amprt_rounding_gemm.def that round an
      f32 A (_mlir_ciface_amp_rt_<NAME>; libamprt only).
  check_contract.py collectives AMPRT_COLLECTIVES_DEF LIBRARY
      the same for the all-reduce entries of amprt_collectives.def
      (_mlir_ciface_amp_rt_<NAME>).
  check_contract.py ctypes LAYOUT_BINARY
      python/amp_mlir/runtime.py's ctypes structs and constants match
      amp_artifact.h as a C compiler lays it out (LAYOUT_BINARY prints it).
"""
import ctypes
import importlib.util
import os
import re
import subprocess
import sys
import types


def exported_symbols(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def check_entries(definition, macro, prefix, family, what, library):
    """Every MACRO(NAME, ...) entry of `definition` is exported by `library`
    as _mlir_ciface_<prefix>_<NAME>, and no other symbol of the family
    (names matching `family` after the prefix) is."""
    names = re.findall(rf"^{macro}\((\w+),", open(definition).read(), re.M)
    if not names:
        sys.exit(f"no {macro} entry in {definition}")
    symbols = exported_symbols(library)
    expected = {f"_mlir_ciface_{prefix}_{name}" for name in names}
    pattern = re.compile(rf"^_mlir_ciface_{prefix}_{family}$")
    exported = {s for s in symbols if pattern.match(s)}
    missing, extra = expected - exported, exported - expected
    if missing or extra:
        sys.exit(f"{library}: missing {sorted(missing)}, not in the list {sorted(extra)}")
    print(f"{len(expected)} {what} exported as listed")


def check_gemms(definition, prefix, library):
    check_entries(definition, "AMPRT_GEMM", prefix, r"(batch_)?matmul_\w+", "GEMMs",
                  library)


def check_rounding_gemms(definition, library):
    check_entries(definition, "AMPRT_ROUNDING_GEMM", "amp_rt", r"rounding_matmul_\w+",
                  "rounding GEMMs", library)


def check_collectives(definition, library):
    check_entries(definition, "AMPRT_ALL_REDUCE", "amp_rt", r"all_reduce_\w+",
                  "collectives", library)


def check_ctypes(layout_binary):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    # runtime.py alone, without the front end (and torch) it imports.
    package = types.ModuleType("amp_mlir")
    package.__path__ = []
    export = types.ModuleType("amp_mlir.export")
    export.build_training_step = None
    sys.modules.update({"amp_mlir": package, "amp_mlir.export": export})
    spec = importlib.util.spec_from_file_location(
        "amp_mlir.runtime", os.path.join(root, "python", "amp_mlir", "runtime.py"))
    runtime = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runtime)

    c_layout = {}
    for line in subprocess.run([layout_binary], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        key, value = line.split()
        c_layout[key] = int(value)
    py_layout = {"sizeof(amp_tensor_info)": ctypes.sizeof(runtime._Tensor),
                 "sizeof(amp_function_info)": ctypes.sizeof(runtime._Function)}
    for struct, name in ((runtime._Tensor, "amp_tensor_info"),
                         (runtime._Function, "amp_function_info")):
        for field, _ in struct._fields_:
            py_layout[f"offsetof({name},{field})"] = getattr(struct, field).offset
    for name, value in runtime.ENUMS.items():
        py_layout[name] = value
    # Every struct fact must match; enum values where Python uses them.
    wrong = {k: (py_layout.get(k), v) for k, v in c_layout.items()
             if (k in py_layout or k.startswith(("sizeof", "offsetof")))
             and py_layout.get(k) != v}
    unchecked = set(py_layout) - set(c_layout)
    if wrong or unchecked:
        sys.exit(f"python differs from amp_artifact.h (python, C): {wrong}; "
                 f"not in the header: {sorted(unchecked)}")
    print(f"{len(c_layout)} layout facts match")


if __name__ == "__main__":
    if sys.argv[1] == "gemms":
        check_gemms(*sys.argv[2:5])
    elif sys.argv[1] == "rounding-gemms":
        check_rounding_gemms(*sys.argv[2:4])
    elif sys.argv[1] == "collectives":
        check_collectives(*sys.argv[2:4])
    else:
        check_ctypes(sys.argv[2])
