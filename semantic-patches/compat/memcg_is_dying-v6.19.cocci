// Target: mm/memcontrol.c
// memcg_is_dying() came in 6.19 (include/linux/memcontrol.h); before it,
// callers test the css directly.  Used by series B patch 3 on trees
// without it (probe: no "memcg_is_dying(" in memcontrol.h).  The callers
// in series B hold a reference to a non-NULL memcg.
#spatch --keep-comments

@depends on file in "mm/memcontrol.c"@
expression memcg;
@@
- memcg_is_dying(memcg)
+ css_is_dying(&memcg->css)
