#!/usr/bin/env bash
# What each package .ci/tex installs adds on a fresh machine: a minimal Debian 12 made with
# debootstrap, then each step of .ci/tex's list installed in turn (without recommends, as
# .ci/tex does), timed, with the packages and megabytes it adds; then, in a second fresh
# chroot, the same list with what it recommends (how .ci/tex installed it before).
# Run as root on Debian or Ubuntu with network: bash bench/tex_install.sh [WORKDIR]
# (WORKDIR defaults to /var/tmp/tex-install; it needs about 4 GB). Each line: the step,
# its seconds, the packages and megabytes it added. apt's own output is in WORKDIR/*.log.
set -euo pipefail
work=${1:-/var/tmp/tex-install}
mkdir -p "$work"
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
[ -d "$work/base" ] || debootstrap --variant=minbase bookworm "$work/base" \
  http://deb.debian.org/debian >"$work/debootstrap.log"

fresh() {  # a copy of the minimal system, its package lists updated
  rm -rf "$work/$1" && cp -a "$work/base" "$work/$1"
  cp /etc/resolv.conf "$work/$1/etc/resolv.conf"
  mount -t proc proc "$work/$1/proc" && mount --bind /dev "$work/$1/dev"
  chroot "$work/$1" apt-get update -qq >"$work/$1-update.log" 2>&1
}
release() { umount "$work/$1/proc" "$work/$1/dev"; }
packages() { chroot "$work/$1" dpkg -l | grep -c '^ii'; }
megabytes() { du -smx "$work/$1" | cut -f1; }
install() {  # CHROOT LABEL APT-ARGS...: one timed step
  local root=$1 label=$2; shift 2
  local before_n before_mb start
  before_n=$(packages "$root"); before_mb=$(megabytes "$root"); start=$(date +%s.%N)
  chroot "$work/$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" \
    >"$work/$root-$label.log" 2>&1
  printf '%-12s %6.1f s %4d packages %5d MB  (%s)\n' "$label" \
    "$(echo "$(date +%s.%N) - $start" | bc)" "$(($(packages "$root") - before_n))" \
    "$(($(megabytes "$root") - before_mb))" "$*"
}

fresh lean
install lean xelatex --no-install-recommends texlive-xetex lmodern texlive-fonts-recommended
install lean latexmk --no-install-recommends latexmk
install lean fonts --no-install-recommends fonts-noto-cjk fonts-dejavu-core
install lean xeCJK --no-install-recommends texlive-lang-cjk texlive-lang-chinese
install lean bubblewrap --no-install-recommends bubblewrap
release lean
fresh recommends
install recommends all texlive-xetex latexmk texlive-lang-cjk fonts-noto-cjk \
  fonts-dejavu-core bubblewrap
release recommends
