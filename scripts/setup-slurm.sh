#!/usr/bin/env bash
# Installs what tests/slurm/slurm_test.sh needs for a one-node Slurm on loopback: Debian's
# slurm-wlm (slurmctld, slurmd, sbatch) and munge. Does nothing when they are there already.
#   scripts/setup-slurm.sh        # exit 0: installed or present; 1: cannot install (reason printed)
# Only the test needs this; on a real cluster Slurm is the site's (docs/SCALE.md).
set -euo pipefail

missing=()
for tool in sbatch squeue sinfo slurmctld slurmd munged; do
  command -v "$tool" >/dev/null 2>&1 || [[ -x "/usr/sbin/$tool" ]] || missing+=("$tool")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup-slurm: slurm-wlm and munge are installed"
  exit 0
fi
echo "setup-slurm: missing ${missing[*]}; installing slurm-wlm and munge" >&2
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup-slurm: no apt-get here; install Slurm (slurmctld, slurmd, sbatch) and munge by hand" >&2
  exit 1
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null 2>&1 || { echo "setup-slurm: not root and no sudo" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null 2>&1 ||
  { $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends slurm-wlm munge; } ||
  { echo "setup-slurm: apt-get install slurm-wlm munge failed" >&2; exit 1; }
# The packages' own daemons, started by the install where a service manager runs, are not the
# test's: it starts its own on free ports with its own key.
echo "setup-slurm: installed $(sbatch --version 2>/dev/null || echo slurm-wlm) and munge"
