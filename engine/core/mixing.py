"""The mixing of position-key terms, kept out of the compiled modules on purpose.

SplitMix64's finaliser multiplies 64-bit numbers: Python ints above 2**62, which CPython's long
multiplication works out, and that multiplication runs the pending signal handlers. Compiled
code (mypyc) takes a failed product for a failed allocation and aborts the process ("fatal:
out of memory"), so a Ctrl-C, SIGTERM or SIGHUP that lands there, where the handler raises,
would kill the program without its save. Called from here, interpreted, the handler's exception
reaches the caller as any other would.
"""

from __future__ import annotations

_MASK64 = (1 << 64) - 1
_MASK = (1 << 61) - 1  # a hash fits a machine word (compiled code keeps such ints unboxed)


def mix(value: int, salt: int) -> int:
    """A 61-bit term from a hash and a salt, mixed by SplitMix64's finaliser. Python's tuple
    hash will not do: it is close to linear, so that a sum of its values over the piles lets
    two cards that change places between two groups of piles cancel out."""
    x = (value + (salt + 2) * 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return (x ^ (x >> 31)) & _MASK
