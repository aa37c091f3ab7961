#!/bin/bash
. "$(dirname "$0")/../lib.sh"
base "$1"
field "$1" set cp.ckpt_flags $(( $(val "$1" cp.ckpt_flags) | 0x8 ))
field "$1" fixcrc cp
