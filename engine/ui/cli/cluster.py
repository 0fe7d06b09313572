"""``stats --solve --cluster ADDRESS``: the command line's side of a run on a Ray cluster."""

from __future__ import annotations

import argparse

from ...play.cluster import Cluster, ClusterError, RayMissing, resolve_address
from .output import InputError, UsageError


def open_cluster(args: argparse.Namespace) -> Cluster:
    """The cluster ``--cluster`` names, connected (or started, for ``local``).

    Without Ray installed this is a usage error (exit 2) that says how to install it; a
    cluster that cannot be reached is invalid input (exit 1)."""
    try:
        address = resolve_address(args.cluster)
        if args.jobs is not None and address != "local":
            raise UsageError(
                "--jobs sets the CPUs of --cluster local; a cluster's own CPUs solve its deals"
            )
        return Cluster(address, cpus=args.jobs)
    except RayMissing as exc:
        raise UsageError(str(exc)) from None
    except ClusterError as exc:
        if "needs an address" in str(exc):
            raise UsageError(str(exc)) from None
        raise InputError(str(exc)) from None
