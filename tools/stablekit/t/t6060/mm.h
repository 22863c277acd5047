#ifndef MM_H
#define MM_H
int mm_a(void);
int mm_b(void);
#endif
