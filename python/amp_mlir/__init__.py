"""amp_mlir: PyTorch front end of amp-mlir.

  text = amp_mlir.export_training_step(model, loss_fn, optimizer, x, y)
  trainer = amp_mlir.compile(model, loss_fn, optimizer, x, y, precision="f16")
  loss = trainer.step(x, y)
"""
from .export import UnsupportedOp, export_predict, export_training_step, optimizer_spec
from .runtime import Trainer, compile, get_num_threads, set_num_threads

__all__ = ["UnsupportedOp", "export_predict", "export_training_step", "optimizer_spec", "Trainer",
           "compile", "get_num_threads", "set_num_threads"]
