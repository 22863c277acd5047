// Target: mm/memcontrol.c
// get_non_dying_memcg_start(memcg) / get_non_dying_memcg_end(void) of
// v7.1-rc1 became get_non_dying_memcg_start(memcg, bool *rcu_locked) /
// get_non_dying_memcg_end(bool rcu_locked) in v7.1-rc2, with upstream's
// "mm: memcontrol: fix rcu unbalance in get_non_dying_memcg_end()": the
// rc1 end() re-evaluated cgroup_subsys_on_dfl(), which a rebind can flip
// between start() and end(), and then unlocked an RCU lock never taken.
// This rule is that fix as a semantic patch: it upgrades a tree with the
// rc1 form to the rc2 form, definitions and callers, so that series B
// (written against the rc2 form) applies as it is.  The result is the
// rc2 form exactly as series B's pre-image shows it (the !CONFIG_MEMCG_V1
// stub of start() does not set *rcu_locked; its end() ignores it).
// Callers keep their declarations at the top of the function (kernel
// style): "bool rcu_locked;" goes after the last one, or first with a
// blank line when there is none.  Guarded by done: once an end() takes
// "bool rcu_locked", nothing runs (series B keeps that signature).
#spatch --keep-comments

@done depends on file in "mm/memcontrol.c"@
typedef bool;
@@
 void get_non_dying_memcg_end(bool rcu_locked)
 {
 ...
 }

@start depends on file in "mm/memcontrol.c" && !done@
identifier memcg;
symbol memory_cgrp_subsys, rcu_locked;
@@
 struct mem_cgroup *get_non_dying_memcg_start(struct mem_cgroup *memcg
+	, bool *rcu_locked
 )
 {
+	/* Rebinding can cause this value to be changed at runtime */
 	if (cgroup_subsys_on_dfl(memory_cgrp_subsys))
-		return memcg;
+	{
+		*rcu_locked = false;
+		return memcg;
+	}
 	rcu_read_lock();
+	*rcu_locked = true;
 	...
 }

@end depends on file in "mm/memcontrol.c" && !done@
symbol memory_cgrp_subsys, rcu_locked;
@@
 void get_non_dying_memcg_end(
- void
+ bool rcu_locked
 )
 {
-	if (cgroup_subsys_on_dfl(memory_cgrp_subsys))
+	if (!rcu_locked)
 		return;
 	...
 }

// The !CONFIG_MEMCG_V1 stubs.
@stub_start depends on file in "mm/memcontrol.c" && !done@
identifier memcg;
symbol rcu_locked;
@@
 struct mem_cgroup *get_non_dying_memcg_start(struct mem_cgroup *memcg
+	, bool *rcu_locked
 )
 {
 	return memcg;
 }

@stub_end depends on file in "mm/memcontrol.c" && !done@
symbol rcu_locked;
@@
 void get_non_dying_memcg_end(
- void
+ bool rcu_locked
 )
 {
 }

// The callers: mod_memcg_state(), mod_memcg_lruvec_state().
@callers depends on file in "mm/memcontrol.c" && !done@
identifier fn;
expression m, E;
symbol rcu_locked;
@@
 fn(...)
 {
 	<+...
 	m = get_non_dying_memcg_start(E
+	, &rcu_locked
 	);
 	...
 	get_non_dying_memcg_end(
+	rcu_locked
 	);
 	...+>
 }

@depends on callers@
identifier callers.fn;
declaration d;
statement S;
symbol rcu_locked;
@@
 fn(...)
 {
 	... when any
 	d
+	bool rcu_locked;
 	S
 	...
 }

@depends on callers@
identifier callers.fn;
statement S;
symbol rcu_locked;
@@
 fn(...)
 {
+	bool rcu_locked;
+
 	S
 	...
 }
