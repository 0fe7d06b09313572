"""Worker processes that take items one at a time over a pipe each, with no helper thread here.

This replaces concurrent.futures' ProcessPoolExecutor, which cannot be stopped safely by
Ctrl-C. Its manager thread and queue feeder thread share locks with the main thread, and
KeyboardInterrupt is raised in the main thread between any two bytecodes, also inside the
executor's own code: a Python-level ``__enter__`` that has taken a lock (``Condition``, behind
``queue.Queue.put`` in ``submit``), or the futures' locks taken one by one in ``wait``. The
lock stays held, the manager thread blocks on it for ever, and the interpreter's exit, which
joins that thread, never ends: the interrupted run printed its summary and then hung. Here the
main thread alone talks to the workers, so an interrupt can leave nothing half done that
another thread waits on; stopping is terminating the workers and joining them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

STOP_SECONDS = 5.0  # a worker that outlives SIGTERM this long is killed


class WorkersFailed(RuntimeError):
    """A worker process stopped (killed, out of memory) with work in hand."""


def _serve(
    connection: Connection,
    work: Callable[[Any], Any],
    initializer: Callable[..., None],
    initargs: tuple[Any, ...],
) -> None:
    # Ctrl-C is the parent's to handle: it stops the workers itself. This process was started
    # with SIGINT blocked (see _held_interrupt), so none could arrive before it was ignored.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    initializer(*initargs)
    while True:
        try:
            item = connection.recv()
        except EOFError:  # the parent is gone, or closed the pipe
            return
        try:
            answer: tuple[bool, Any] = (True, work(item))
        except Exception as exc:  # a bug: raised again in the parent, as a future would
            answer = (False, exc)
        try:
            connection.send(answer)
        except Exception as exc:  # an answer or exception that cannot be pickled
            connection.send((False, RuntimeError(f"{type(exc).__name__}: {exc}")))


@contextlib.contextmanager
def _held_interrupt() -> Iterator[None]:
    """Ctrl-C held back while processes start, then delivered as usual.

    Blocked, SIGINT is inherited blocked by the new processes, which ignore it before
    unblocking it. Caught by a handler that only notes it, it cannot raise KeyboardInterrupt
    inside the fork (the at-fork callbacks swallow exceptions: seen, the run went on as if
    never interrupted), also when another thread (a progress bar's) took the signal."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # a pending SIGINT is caught now
        signal.signal(signal.SIGINT, previous)
    if caught:
        signal.raise_signal(signal.SIGINT)  # handled as the program would have handled it


class Workers(Generic[Item, Result]):
    """``count`` processes, each running ``work`` on the items sent to it, in turn.

    ``initializer(*initargs)`` runs first in each. Items go to the process with the fewest in
    hand; answers come back in the order they are done. ``close`` (also on leaving a ``with``
    block) terminates the processes and waits for them to end."""

    def __init__(
        self,
        count: int,
        work: Callable[[Item], Result],
        initializer: Callable[..., None],
        initargs: tuple[Any, ...] = (),
    ) -> None:
        self._processes: list[BaseProcess] = []
        self._connections: list[Connection] = []
        self._in_hand: dict[Connection, list[int]] = {}  # tickets, oldest first
        self._next_ticket = 0
        context = multiprocessing.get_context()
        try:
            with _held_interrupt():
                for _ in range(count):
                    mine, theirs = context.Pipe()
                    process = context.Process(
                        target=_serve,
                        args=(theirs, work, initializer, initargs),
                        name="solitaire-worker",
                        # on the way out multiprocessing terminates its daemonic processes,
                        # should close not have run (a second Ctrl-C during it)
                        daemon=True,
                    )
                    process.start()
                    theirs.close()  # the worker's end: its exit is then seen as end of file
                    self._processes.append(process)
                    self._connections.append(mine)
                    self._in_hand[mine] = []
        except BaseException:
            self.close()
            raise

    @property
    def in_hand(self) -> int:
        """How many items were sent and not answered yet."""
        return sum(len(tickets) for tickets in self._in_hand.values())

    def send(self, item: Item) -> int:
        """Hand ``item`` to a process; returns its ticket, which ``receive`` returns with it."""
        connection = min(self._connections, key=lambda c: len(self._in_hand[c]))
        ticket = self._next_ticket
        self._next_ticket += 1
        try:
            connection.send(item)
        except OSError:  # the process is gone (its end of the pipe closed)
            process = self._processes[self._connections.index(connection)]
            process.join(STOP_SECONDS)
            raise WorkersFailed(_ended(process)) from None
        self._in_hand[connection].append(ticket)
        return ticket

    def receive(self) -> tuple[int, Result]:
        """The ticket and answer of the next item done (waits for it).

        An exception raised by ``work`` is raised here; a process that ended with work in hand
        raises WorkersFailed."""
        busy = [c for c in self._connections if self._in_hand[c]]
        if not busy:
            raise ValueError("no item is under way")
        ready = wait(busy)
        connection = ready[0]
        assert isinstance(connection, Connection)
        try:
            done, answer = connection.recv()
        except (EOFError, OSError):
            process = self._processes[self._connections.index(connection)]
            process.join(STOP_SECONDS)
            raise WorkersFailed(_ended(process)) from None
        ticket = self._in_hand[connection].pop(0)
        if not done:
            raise answer
        result: Result = answer
        return ticket, result

    def close(self) -> None:
        """Terminate the processes and wait for their end (at once: work in hand is lost)."""
        for process in self._processes:
            if process.exitcode is None:
                process.terminate()
        for process in self._processes:
            process.join(STOP_SECONDS)
            if process.exitcode is None:
                process.kill()
                process.join()
        for connection in self._connections:
            connection.close()
        self._processes.clear()
        self._connections.clear()
        self._in_hand.clear()

    def __enter__(self) -> Workers[Item, Result]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _ended(process: BaseProcess) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        try:
            how = f"killed by {signal.Signals(-code).name}"
        except ValueError:
            how = f"killed by signal {-code}"
    else:
        how = f"exit status {code}"
    return f"a worker process stopped ({how})"
