#!/bin/sh
# merge_config.sh -m -O DIR BASE FRAGMENT...: the fragments appended
shift; shift; shift
base=$1; shift
cat "$@" >>"$base"
