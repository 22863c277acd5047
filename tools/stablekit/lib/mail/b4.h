#ifndef SK_B4_H
#define SK_B4_H

/*
 * b4 does threading, newest-revision choice and trailer collection; we run
 * it by argv and read back what it writes.
 */
struct sk_b4_am_opts {
	const char *mbox;	/* local mbox or maildir: offline; NULL: lore */
	const char *msgid;	/* a message of the thread, or NULL */
	const char *outdir;	/* must exist: b4 0.12 dies otherwise */
	const char *lore;	/* public-inbox URL (lore.h); NULL: lore's */
	unsigned int timeout_ms;
};

/* Paths of the am-ready mbox and the cover letter (NULL if none). */
struct sk_b4_am_result {
	char *mbx;
	char *cover;
};

int sk_b4_am(struct sk_b4_am_result *out, const struct sk_b4_am_opts *o);
/*
 * Fetch a whole thread from lore (or the public-inbox server at the URL
 * lore, NULL: lore's) into dir, never from b4's cache; *out is the mbox.
 */
int sk_b4_mbox(char **out, const char *lore, const char *msgid,
	       const char *dir, unsigned int timeout_ms);
void sk_b4_am_result_release(struct sk_b4_am_result *r);

#endif
