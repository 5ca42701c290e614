# Parity's comparison rule (a reference.py output against pkb's dump) and the one-line messages
# for a mismatch, an exception or a job's verdict over all ranks.
import traceback


def check_outputs(torch, returned, expected, tolerance):
    """None if `returned` matches the dumped outputs, else what differs first."""
    outputs = list(returned) if isinstance(returned, (tuple, list)) else [returned]
    if len(outputs) != len(expected):
        return (f"returned {len(outputs)} outputs, expected {len(expected)} "
                f"({', '.join(expected)})")
    for (name, want), got in zip(expected.items(), outputs):
        if not isinstance(got, torch.Tensor):
            return f"output {name}: expected a tensor, got {type(got).__name__}"
        message = compare_tensor(torch, got.detach().cpu(), want, tolerance)
        if message:
            return f"output {name}: {message}"
    return None


def compare_tensor(torch, got, want, tolerance):
    from safetensors_io import pkb_dtype_name  # imports torch, which the parent never loads

    if got.dtype != want.dtype:
        return f"dtype {pkb_dtype_name(got.dtype)}, expected {pkb_dtype_name(want.dtype)}"
    if got.shape != want.shape:
        return f"shape {tuple(got.shape)}, expected {tuple(want.shape)}"
    if want.numel() == 0:
        return None
    floating = want.dtype.is_floating_point
    if floating:
        py, cpp = got.double().reshape(-1), want.double().reshape(-1)
        finite = torch.isfinite(py) & torch.isfinite(cpp)
        # Non-finite values must sit at the same places: NaN against NaN, inf against same inf.
        same_special = (torch.isnan(py) & torch.isnan(cpp)) | (py == cpp)
        diff = torch.where(finite, (py - cpp).abs(), torch.zeros_like(py))
        bad_special = ~finite & ~same_special
        bad = bad_special | (finite & (diff > allowed_error(torch, cpp, want.dtype, tolerance)))
    else:  # integers and bool: exact
        py, cpp = got.to(torch.int64).reshape(-1), want.to(torch.int64).reshape(-1)
        diff = (py - cpp).abs()
        bad = bad_special = diff != 0
    if not bad.any():
        return None
    # Point at a misplaced NaN/inf first (its |diff| is no number), else at the largest |diff|.
    if bad_special.any():
        worst = int(torch.argmax(bad_special.to(torch.uint8)))
    else:
        worst = int(torch.argmax(torch.where(bad, diff, torch.full_like(diff, -1))))
    show = (lambda t: repr(float(t[worst]))) if floating else (lambda t: str(int(t[worst])))
    what = "nan/inf mismatch" if floating and bad_special[worst] else f"max |diff| {show(diff)}"
    index = ", ".join(str(i) for i in unravel(worst, want.shape))
    return (f"{what} at index ({index}), python {show(py)} vs c++ {show(cpp)} "
            f"({int(bad.sum())} of {want.numel()} elements differ)")


def allowed_error(torch, cpp, dtype, tolerance):
    """atol + rtol * |cpp| + one unit in the last place of `dtype` at |cpp|: the ulp covers
    gloo's and pkb's fp32 accumulations rounding differently in the last bit."""
    info = torch.finfo(dtype)
    magnitude = cpp.abs()
    ulp = torch.clamp(torch.exp2(torch.floor(torch.log2(magnitude))), min=info.tiny) * info.eps
    return tolerance.get("atol", 0) + tolerance.get("rtol", 0) * magnitude + ulp


def unravel(flat_index, shape):
    index = []
    for size in reversed(shape):
        index.append(flat_index % size)
        flat_index //= size
    return list(reversed(index))


def same_bits(torch, a, b):
    if a.dtype.is_floating_point:  # NaN != NaN, so compare the bit patterns
        views = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
        a, b = a.view(views[a.element_size()]), b.view(views[b.element_size()])
    return a.shape == b.shape and torch.equal(a, b)


def verdict(results, notes=()):
    """One line from every rank's result and the notes on ranks that gave none: ok, or the
    likeliest cause first (a rank that died or hung, else the first exception, else the lowest
    rank that differs); the other ranks' failures usually follow from it."""
    failed = [result for result in results.values() if result["status"] != "ok"]
    if not failed and not notes:
        return "ok"
    errors = sorted((r for r in failed if r["status"] == "error"), key=lambda r: r["time"])
    head = errors[0] if errors else min(failed, key=lambda r: r["rank"]) if failed else None
    parts = list(notes)
    if head:
        separator = ": " if head["status"] == "error" else " "
        parts.append(f"rank {head['rank']}{separator}{head['message']}")
        others = sorted(r["rank"] for r in failed if r is not head)
        if others:
            parts.append(f"rank{'s' if len(others) > 1 else ''} {', '.join(map(str, others))} "
                         "failed too")
    return "FAIL " + "; ".join(parts)


def describe_exception(err, reference_py):
    text = f"{type(err).__name__}: {one_line(str(err), 500)}"
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename == reference_py]
    return text + (f" (reference.py line {frames[-1].lineno})" if frames else "")


def one_line(text, limit=2000):
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return (" | ".join(lines) or "(no output)")[:limit]
