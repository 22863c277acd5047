#ifndef SK_IDENTITY_H
#define SK_IDENTITY_H

/*
 * Who signs: "[stablekit] signoff" in stable/branches.conf, else git's
 * user.name and user.email; NULL when neither is set.  Caller frees.
 * Used for the backporter's Signed-off-by: and the report's Tested-by:.
 */
char *sk_identity(const char *top);

#endif
