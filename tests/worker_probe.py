"""An initializer for the lab's local workers that notes, in the file named
by ``$WARLORDS_TEST_SIGINT_NOTES``, whether the worker found SIGINT ignored,
then runs the lab's own (test_experiments.py). A module of its own: a worker
imports it by name, and this one imports nothing the worker does not."""

from __future__ import annotations

import os
import signal


def note_sigint_then_init() -> None:
    from warlords_sim.experiments import runner

    with open(os.environ["WARLORDS_TEST_SIGINT_NOTES"], "a", encoding="utf-8") as f:
        f.write(f"{signal.getsignal(signal.SIGINT) is signal.SIG_IGN}\n")
    runner._worker_init()
