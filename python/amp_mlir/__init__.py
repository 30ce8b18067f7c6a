"""amp_mlir: PyTorch front end of amp-mlir.

  text = amp_mlir.export_training_step(model, loss_fn, optimizer, x, y)
  trainer = amp_mlir.compile(model, loss_fn, optimizer, x, y, precision="f16")
  loss = trainer.step(x, y)

Steps are traced by make_fx and imported by torch-mlir (PyTorch 2.x).
"""
from .export import StepLayout, build_training_step, export_predict, export_training_step
from .importer import UnsupportedOp
from .optim import optimizer_spec, state_names
from .runtime import (Trainer, all_reduce, broadcast, compile, get_num_threads,
                      init_data_parallel, rank, set_num_threads, shard, world_size)

__all__ = ["StepLayout", "UnsupportedOp", "build_training_step", "export_predict",
           "export_training_step", "optimizer_spec", "state_names", "Trainer", "compile",
           "get_num_threads", "set_num_threads"]
