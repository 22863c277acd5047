#!/bin/sh

test_description='text from a guest console never drives the terminal

A guest prints what it likes, escape sequences included (set the window
title, clear the screen, CSI as one C1 byte).  What stablekit prints of a
console (a splat line, a boot reason, a KTAP line it could not read)
shows each control character as \xNN or \u00NN instead.'

. ./lib-stablekit.sh

test_expect_success 'test --scan-log: the splat line with escapes, shown escaped' '
	printf "[    0.100000] boot\n[    1.000000] WARNING: CPU: 0 PID: 1 at mm/x.c:1 f+0x1/0x2 \033]0;pwned\007\033[2J\302\233" >console.log &&
	printf "31m\n" >>console.log &&
	test_expect_code 1 stablekit test --scan-log console.log >out &&
	grep -F "\\x1b]0;pwned\\x07\\x1b[2J\\u009b31m" out &&
	! grep -q "$(printf "\033")" out &&
	! grep -q "$(printf "\007")" out &&
	! grep -q "$(printf "\302\233")" out
'

test_done
