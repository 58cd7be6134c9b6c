"""SHA-256 without `hashlib`: the interpreter's built-in implementation, as hashlib's own fallback uses it.

`import hashlib` loads OpenSSL's `_hashlib` (≈ 2.5–3 ms), which a hook call pays on every sub-agent call once any
dispatch was recorded (the wave registry's directory name) and on every call the daemon answers (its key). The
built-in module is `_sha2` from Python 3.12 on and `_sha256` before; the digests are the same as hashlib's.
"""

try:
    from _sha2 import sha256  # Python ≥ 3.12
except ImportError:  # pragma: no cover — which one exists depends on the Python
    try:
        from _sha256 import sha256  # Python 3.11
    except ImportError:
        from hashlib import sha256  # a Python built without them

__all__ = ["sha256"]
