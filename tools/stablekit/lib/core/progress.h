#ifndef SK_PROGRESS_H
#define SK_PROGRESS_H

/*
 * Progress of long work (builds, boots, the gate): one line per step on
 * stderr, "[elapsed] what", whether stderr is a terminal or a CI log, so a
 * logged `make run` is never silent for half an hour.  On by default;
 * `stablekit --quiet` or SK_PROGRESS=0 turns it off, SK_PROGRESS=1 or
 * `--progress` on.  The one process-wide setting, made once in main()
 * before any thread starts.
 */
void sk_progress_setup(int enabled);
int sk_progress_enabled(void);
/* Is stderr a terminal (so a line may be redrawn with '\r')? */
int sk_progress_tty(void);
void sk_progressf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
