"""handover_train: what a PyTorch training script needs to hand over.

A link of a chain that hands over (mirage-advise --handover, with
pipelines/handover-ddp.sbatch) is asked to stop by a file: the batch
shell creates it when it gets the take-over's signal (or Slurm's own
--signal before the limit).  Every rank calls stop_requested() at the
same step; they all get the same answer, so they stop at the same step
and none is left waiting in a collective.  Rank 0 then writes the
checkpoint with save_atomic(): a reader (the successor) sees the old
checkpoint or the new one, never a part of one.

    from handover_train import stop_requested, save_atomic, load_newest

    state = load_newest(ckpt)            # None on the first link
    for step in range(start, steps):
        train_one_step()
        stop = stop_requested()
        if stop or step % every == 0:
            if rank == 0:
                save_atomic({"model": model.state_dict(), "step": step}, ckpt)
            dist.barrier()
        if stop:
            break

With PyTorch Lightning, pass callbacks=[handover_callback()] and
plugins=[SLURMEnvironment(auto_requeue=False)] to the Trainer: Lightning's
default requeues the job on SIGUSR1, which would start it again beside
its successor.

The paths come from the environment the batch script sets
(HANDOVER_STOP_FILE, HANDOVER_CKPT, HANDOVER_OWNER) unless given.

A fencing token keeps a predecessor that was handed over from writing
after its successor took over: the batch script of the link that takes
over writes its job id to the owner file (HANDOVER_OWNER), and
save_atomic() publishes a checkpoint only while the owner file names
this job (SLURM_JOB_ID); otherwise it raises Fenced and publishes
nothing, and the link should stop.
"""

import os


def _dist():
    """torch.distributed when a process group is up, else None."""
    try:
        import torch.distributed as dist
    except ImportError:
        return None
    if not dist.is_available() or not dist.is_initialized():
        return None
    return dist


def stop_requested(stop_file=None):
    """True on every rank when any rank sees the stop file.

    A collective when torch.distributed is up: call it on every rank at
    the same step.
    """
    stop_file = stop_file or os.environ.get("HANDOVER_STOP_FILE", "")
    seen = bool(stop_file) and os.path.exists(stop_file)
    dist = _dist()
    if dist is None:
        return seen
    import torch

    device = torch.device("cpu")
    if dist.get_backend() == "nccl":
        device = torch.device("cuda", torch.cuda.current_device())
    flag = torch.tensor([1 if seen else 0], device=device)
    dist.all_reduce(flag, op=dist.ReduceOp.MAX)
    return bool(flag.item())


class Fenced(RuntimeError):
    """Another link owns the checkpoint: this one was handed over."""


def owns(owner=None, job=None):
    """True while the owner file names this job (or there is none)."""
    owner = owner or os.environ.get("HANDOVER_OWNER", "")
    job = job or os.environ.get("SLURM_JOB_ID", "")
    try:
        with open(owner) as f:
            return f.read().strip() == job
    except (FileNotFoundError, IsADirectoryError):
        return True


def save_atomic(obj, path=None, save=None):
    """Write obj to path through a temporary file beside it, synced, then
    renamed over path, unless another link owns it (Fenced is raised and
    nothing is published).  save(obj, file) writes it (torch.save)."""
    path = path or os.environ["HANDOVER_CKPT"]
    if save is None:
        import torch

        save = torch.save
    tmp = "%s.tmp.%d" % (path, os.getpid())
    try:
        with open(tmp, "wb") as f:
            save(obj, f)
            f.flush()
            os.fsync(f.fileno())
        if not owns():
            raise Fenced("link %s owns the checkpoint %s: not written" %
                         (open(os.environ["HANDOVER_OWNER"]).read().strip(),
                          path))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def load_newest(path=None, load=None):
    """The checkpoint at path, or None when there is none yet."""
    path = path or os.environ.get("HANDOVER_CKPT", "")
    if not path or not os.path.exists(path):
        return None
    if load is None:
        import torch

        load = torch.load
    with open(path, "rb") as f:
        return load(f)


def handover_callback(stop_file=None, ckpt=None):
    """A Lightning callback: the ranks agree to stop once the stop file
    is there, and the checkpoint is written atomically when training
    ends that way."""
    try:
        from lightning.pytorch.callbacks import Callback
    except ImportError:
        from pytorch_lightning.callbacks import Callback

    class HandoverCallback(Callback):
        def on_train_batch_end(self, trainer, *args):
            seen = os.path.exists(stop_file or
                                  os.environ.get("HANDOVER_STOP_FILE", ""))
            if trainer.strategy.reduce_boolean_decision(seen, all=False):
                trainer.should_stop = True

        def on_train_end(self, trainer, *args):
            path = ckpt or os.environ["HANDOVER_CKPT"]
            tmp = "%s.tmp" % path
            trainer.save_checkpoint(tmp)
            trainer.strategy.barrier()
            if trainer.is_global_zero and owns():
                os.replace(tmp, path)
            elif trainer.is_global_zero:
                os.unlink(tmp)      # fenced: a successor owns it

    return HandoverCallback()
