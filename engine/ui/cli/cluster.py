"""``stats --solve --cluster ADDRESS``: the command line's side of a run on a Ray cluster."""

from __future__ import annotations

import argparse

from ...play.cluster import AddressError, Cluster, ClusterError, RayMissing, resolve_address
from .output import InputError, UsageError


def open_cluster(args: argparse.Namespace) -> Cluster:
    """The cluster ``--cluster`` names, connected (or started, for ``local``).

    Without Ray installed this is a usage error (exit 2) that says how to install it, as is
    an address of no form Ray takes; a cluster that cannot be reached is exit 1."""
    try:
        address = resolve_address(args.cluster)
        if args.jobs is not None and address != "local":
            raise UsageError(
                "--jobs sets the CPUs of --cluster local; a cluster's own CPUs solve its deals"
            )
        token = getattr(args, "cluster_token", None)
        if token is not None and address in ("local", "auto"):
            raise UsageError("--cluster-token goes with --cluster ADDRESS (a cluster's address)")
        return Cluster(address, cpus=args.jobs, token_file=token)
    except (RayMissing, AddressError) as exc:
        raise UsageError(str(exc)) from None
    except ClusterError as exc:
        raise InputError(str(exc)) from None
