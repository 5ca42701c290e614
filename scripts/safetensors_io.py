# Reads and writes safetensors files with torch alone (no safetensors package), for the parity
# runner: pkb dumps are standard safetensors (u64 LE header length, JSON header, LE raw data).
import ctypes
import json
import struct
import sys

import torch

# safetensors code -> (torch dtype, pkb name). Torch 1.13 has no float8, so F8_* load as their raw
# bytes in uint8, the same way pkb's C++ side holds them.
DTYPES = {
    "BF16": (torch.bfloat16, "bf16"),
    "F16": (torch.float16, "fp16"),
    "F32": (torch.float32, "fp32"),
    "F64": (torch.float64, "fp64"),
    "I8": (torch.int8, "int8"),
    "U8": (torch.uint8, "uint8"),
    "I16": (torch.int16, "int16"),
    "I32": (torch.int32, "int32"),
    "I64": (torch.int64, "int64"),
    "BOOL": (torch.bool, "bool"),
    "F8_E4M3": (torch.uint8, "fp8e4m3"),
    "F8_E5M2": (torch.uint8, "fp8e5m2"),
}
_CODE_OF_TORCH = {torch_dtype: code for code, (torch_dtype, _) in DTYPES.items()
                  if not code.startswith("F8")}


def pkb_dtype_name(dtype):
    """pkb's name for a torch dtype ("bf16", "int64", ...), or torch's own for others."""
    code = _CODE_OF_TORCH.get(dtype)
    return DTYPES[code][1] if code else str(dtype).replace("torch.", "")


def read_safetensors(path):
    """({name: tensor} in file order, {metadata}); ValueError naming the path and field."""
    if sys.byteorder != "little":
        raise ValueError(f"{path}: safetensors data is little-endian; this host is not")
    with open(path, "rb") as file:
        data = file.read()
    if len(data) < 8:
        raise ValueError(f"{path}: expected at least 8 bytes, got {len(data)}")
    (header_len,) = struct.unpack("<Q", data[:8])
    if 8 + header_len > len(data):
        raise ValueError(f"{path}: header length {header_len} runs past the end "
                         f"({len(data)} bytes)")
    try:
        header = json.loads(data[8:8 + header_len].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: header is not JSON: {err}") from None
    metadata = header.pop("__metadata__", {}) or {}
    payload = memoryview(data)[8 + header_len:]
    tensors = {}
    # Offsets, not header order, give the layout; JSON object order is kept for the names.
    for name, entry in header.items():
        tensors[name] = _tensor_from_entry(path, name, entry, payload)
    return tensors, metadata


def _tensor_from_entry(path, name, entry, payload):
    code = entry.get("dtype")
    if code not in DTYPES:
        raise ValueError(f"{path}: {name}.dtype: expected one of {', '.join(DTYPES)}, got {code!r}")
    dtype = DTYPES[code][0]
    shape = [int(size) for size in entry.get("shape", [])]
    begin, end = entry.get("data_offsets", [0, 0])
    numel = 1
    for size in shape:
        numel *= size
    itemsize = torch.empty((), dtype=dtype).element_size()
    if end - begin != numel * itemsize or end > len(payload) or begin < 0:
        raise ValueError(f"{path}: {name}.data_offsets: expected {numel * itemsize} bytes within "
                         f"{len(payload)}, got [{begin}, {end}]")
    if numel == 0:  # torch.frombuffer rejects an empty buffer
        return torch.empty(shape, dtype=dtype)
    # bytearray copies, so the tensor owns writable memory and outlives the file's bytes.
    return torch.frombuffer(bytearray(payload[begin:end]), dtype=dtype).reshape(shape)


def write_safetensors(path, tensors, metadata=None):
    """Writes {name: tensor} (any dtype in DTYPES but F8_*) in dict order, header padded to 8
    bytes as the safetensors package does."""
    header, blobs, offset = {}, [], 0
    for name, tensor in tensors.items():
        flat = tensor.detach().cpu().contiguous()
        # ctypes rather than .numpy(): numpy is not a dependency and has no bfloat16.
        blob = ctypes.string_at(flat.data_ptr(), flat.numel() * flat.element_size())
        header[name] = {"dtype": _CODE_OF_TORCH[tensor.dtype], "shape": list(tensor.shape),
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    if metadata:
        header["__metadata__"] = {str(key): str(value) for key, value in metadata.items()}
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-(8 + len(text)) % 8)
    with open(path, "wb") as file:
        file.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))
