#include "core/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int progress_on;
static int progress_tty;
static struct timespec progress_start;

void sk_progress_setup(int enabled)
{
	progress_on = enabled;
	progress_tty = isatty(2);
	clock_gettime(CLOCK_MONOTONIC, &progress_start);
}

int sk_progress_enabled(void)
{
	return progress_on;
}

int sk_progress_tty(void)
{
	return progress_on && progress_tty;
}

void sk_progressf(const char *fmt, ...)
{
	struct timespec now;
	double s;
	va_list ap;

	if (!progress_on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	s = (double)(now.tv_sec - progress_start.tv_sec) +
	    (double)(now.tv_nsec - progress_start.tv_nsec) / 1e9;
	/* one line at a time, whichever thread reports */
	flockfile(stderr);
	fprintf(stderr, "[%3d:%02d] ", (int)(s / 60), (int)s % 60);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}
