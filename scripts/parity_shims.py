# Parity workers' torch.distributed shims: NCCL's collectives with pkb's semantics on torch 1.13's
# gloo (install_shims), so an unmodified reference.py runs on CPU.


class CompletedWork:
    """What a shimmed collective returns for async_op=True: it already ran synchronously."""

    def wait(self, timeout=None):
        return True

    def is_completed(self):
        return True

    def is_success(self):
        return True


def install_shims(torch, dist):
    """Gives reference.py NCCL's collectives with pkb's semantics on top of torch 1.13's gloo,
    which lacks bf16, int16 and bool in every collective, AVG, the *_tensor forms and list
    all_to_all. Reductions gather every rank's tensor and combine them
    in rank order exactly as reference/comm/sim_reduce.cpp does, so results match bit for bit."""
    # As reference/runner.cpp: fp32 means full fp32, also where a GPU would allow TF32 convolutions.
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    c10d = dist.distributed_c10d
    original = {name: getattr(c10d, name) for name in
                ("all_gather", "broadcast", "gather", "scatter", "all_to_all_single")}
    ops = dist.ReduceOp
    # Data movement is a byte copy, so unsupported types travel as a same-size supported one.
    carrier = {torch.bfloat16: torch.float16, torch.int16: torch.float16, torch.bool: torch.uint8}

    def wire(tensor):
        return tensor.view(carrier[tensor.dtype]) if tensor.dtype in carrier else tensor

    def outside(group):
        return group is not None and c10d._rank_not_in_group(group)

    def finish(async_op):
        return CompletedWork() if async_op else None

    def gather_all(tensor, group):
        parts = [torch.empty(tensor.shape, dtype=tensor.dtype) for _ in
                 range(dist.get_world_size(group))]
        original["all_gather"]([wire(p) for p in parts], wire(tensor.contiguous()), group=group)
        return parts

    def combine(parts, op):
        dtype = parts[0].dtype
        if op == ops.MAX or op == ops.MIN:
            pick = torch.maximum if op == ops.MAX else torch.minimum
            acc = parts[0].clone()
            for part in parts[1:]:
                acc = pick(acc, part)
            return acc
        acc_type = (torch.float64 if dtype == torch.float64 else
                    torch.float32 if dtype.is_floating_point else torch.int64)
        acc = parts[0].to(acc_type, copy=True)
        if op == ops.SUM or op == ops.AVG:
            for part in parts[1:]:
                acc.add_(part.to(acc_type))
            if op == ops.AVG:
                acc = (acc / float(len(parts)) if acc_type.is_floating_point
                       else torch.div(acc, len(parts), rounding_mode="trunc"))
        elif op == ops.PRODUCT:
            for part in parts[1:]:
                acc.mul_(part.to(acc_type))
        else:
            raise NotImplementedError(f"parity shim: reduce op {op} is not supported")
        return acc.to(dtype)

    def all_reduce(tensor, op=ops.SUM, group=None, async_op=False):
        if not outside(group):
            tensor.copy_(combine(gather_all(tensor, group), op))
        return finish(async_op)

    def reduce(tensor, dst, op=ops.SUM, group=None, async_op=False):
        if not outside(group):
            combined = combine(gather_all(tensor, group), op)
            if dist.get_rank() == dst:  # NCCL: only the destination's buffer changes
                tensor.copy_(combined)
        return finish(async_op)

    def reduce_scatter_tensor(output, input, op=ops.SUM, group=None, async_op=False):
        if outside(group):
            return finish(async_op)
        if input.numel() != dist.get_world_size(group) * output.numel():
            raise ValueError(f"reduce_scatter_tensor: input has {input.numel()} elements, "
                             f"expected group size x {output.numel()}")
        combined = combine(gather_all(input, group), op).reshape(-1)
        start = dist.get_rank(group) * output.numel()
        output.copy_(combined[start:start + output.numel()].view(output.shape))
        return finish(async_op)

    def reduce_scatter(output, input_list, op=ops.SUM, group=None, async_op=False):
        flat = torch.cat([t.reshape(-1) for t in input_list])
        return reduce_scatter_tensor(output, flat, op, group, async_op)

    def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
        if outside(group):
            return finish(async_op)
        flat = torch.cat([p.reshape(-1) for p in gather_all(input_tensor, group)])
        if output_tensor.numel() != flat.numel():
            raise ValueError(f"all_gather_into_tensor: output has {output_tensor.numel()} "
                             f"elements, expected {flat.numel()}")
        output_tensor.copy_(flat.view(output_tensor.shape))  # stacked or concatenated alike
        return finish(async_op)

    def all_gather(tensor_list, tensor, group=None, async_op=False):
        return original["all_gather"]([wire(t) for t in tensor_list], wire(tensor), group=group,
                                      async_op=async_op)

    def broadcast(tensor, src, group=None, async_op=False):
        return original["broadcast"](wire(tensor), src, group=group, async_op=async_op)

    def gather(tensor, gather_list=None, dst=0, group=None, async_op=False):
        wired = None if gather_list is None else [wire(t) for t in gather_list]
        return original["gather"](wire(tensor), wired, dst=dst, group=group, async_op=async_op)

    def scatter(tensor, scatter_list=None, src=0, group=None, async_op=False):
        wired = None if scatter_list is None else [wire(t) for t in scatter_list]
        return original["scatter"](wire(tensor), wired, src=src, group=group, async_op=async_op)

    def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                          group=None, async_op=False):
        return original["all_to_all_single"](wire(output), wire(input), output_split_sizes,
                                             input_split_sizes, group=group, async_op=async_op)

    def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
        if outside(group):
            return finish(async_op)
        send = torch.cat([t.reshape(-1) for t in input_tensor_list])
        received = torch.empty(sum(t.numel() for t in output_tensor_list), dtype=send.dtype)
        original["all_to_all_single"](wire(received), wire(send),
                                      [t.numel() for t in output_tensor_list],
                                      [t.numel() for t in input_tensor_list], group=group)
        offset = 0
        for tensor in output_tensor_list:
            tensor.copy_(received[offset:offset + tensor.numel()].view(tensor.shape))
            offset += tensor.numel()
        return finish(async_op)

    shims = {"all_reduce": all_reduce, "reduce": reduce, "reduce_scatter": reduce_scatter,
             "reduce_scatter_tensor": reduce_scatter_tensor,
             "_reduce_scatter_base": reduce_scatter_tensor,
             "all_gather_into_tensor": all_gather_into_tensor,
             "_all_gather_base": all_gather_into_tensor, "all_gather": all_gather,
             "broadcast": broadcast, "gather": gather, "scatter": scatter,
             "all_to_all_single": all_to_all_single, "all_to_all": all_to_all}
    for name, shim in shims.items():  # both, so `from torch.distributed import x` gets the shim
        setattr(dist, name, shim)
        setattr(c10d, name, shim)
