"""SHA-256 without `hashlib`: the interpreter's built-in implementation, as hashlib's own fallback uses it.

`import hashlib` loads OpenSSL's `_hashlib` (≈ 2.5–3 ms), which a hook call paid on every sub-agent call once any
dispatch was recorded (the wave registry's directory name). The built-in module is `_sha2` from Python 3.12 on and
`_sha256` before; the digests are the same as hashlib's. Chosen by version, not by trying: a failed import in the
hook process runs the `.pth` lines `site_packages` set aside (≈ 4 ms).
"""

import sys

try:
    if sys.version_info >= (3, 12):
        from _sha2 import sha256
    else:
        from _sha256 import sha256
except ImportError:  # pragma: no cover — a Python built without its own SHA-256
    from hashlib import sha256

__all__ = ["sha256"]
