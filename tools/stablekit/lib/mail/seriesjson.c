#include "mail/seriesjson.h"
#include "core/json.h"
#include "core/strvec.h"

#include <string.h>



static json_t *fixlet(const struct sk_fixlet *f)
{
	json_t *o = json_object();

	json_object_set_new(o, "nr", json_integer(f->nr));
	json_object_set_new(o, "subject", sk_json_string(f->subject));
	json_object_set_new(o, "author", sk_json_string(f->author));
	json_object_set_new(o, "date", sk_json_string(f->date));
	json_object_set_new(o, "message_id", sk_json_string(f->message_id));
	json_object_set_new(o, "in_reply_to", sk_json_string(f->in_reply_to));
	json_object_set_new(o, "patch_id", json_string(f->patch_id));
	json_object_set_new(o, "files", sk_strvec_array_json(f->files, f->nr_files));
	return o;
}

json_t *sk_seriesjson_patch(const struct sk_series_patch *p)
{
	json_t *o = json_object(), *tr = json_array(), *fx = json_array();
	size_t i;

	json_object_set_new(o, "nr", json_integer(p->nr));
	json_object_set_new(o, "subject", sk_json_string(p->subject));
	json_object_set_new(o, "author", sk_json_string(p->author));
	json_object_set_new(o, "date", sk_json_string(p->date));
	json_object_set_new(o, "message_id", sk_json_string(p->message_id));
	json_object_set_new(o, "patch_id", json_string(p->patch_id));
	json_object_set_new(o, "upstream", sk_json_string(p->upstream));
	json_object_set_new(o, "files", sk_strvec_array_json(p->files, p->nr_files));
	for (i = 0; i < p->nr_trailers; i++)
		json_array_append_new(tr, json_pack("{s:s, s:s}",
						    "key", p->trailers[i].key,
						    "value", p->trailers[i].value));
	json_object_set_new(o, "trailers", tr);
	for (i = 0; i < p->nr_fixlets; i++)
		json_array_append_new(fx, fixlet(&p->fixlets[i]));
	json_object_set_new(o, "fixlets", fx);
	return o;
}

json_t *sk_seriesjson_revision(const struct sk_revision *r)
{
	json_t *o = json_object(), *ps = json_array();
	size_t i;

	json_object_set_new(o, "version", json_integer(r->version));
	json_object_set_new(o, "label", sk_json_string(r->label));
	json_object_set_new(o, "rfc", json_boolean(r->rfc));
	json_object_set_new(o, "message_id", sk_json_string(r->message_id));
	json_object_set_new(o, "date", sk_json_string(r->date));
	json_object_set_new(o, "mbox", sk_json_string(r->mbox));
	json_object_set_new(o, "base_commit", sk_json_string(r->base_commit));
	json_object_set_new(o, "sender", sk_json_string(r->sender));
	for (i = 0; i < r->nr_patches; i++)
		json_array_append_new(ps, sk_seriesjson_patch(&r->patches[i]));
	json_object_set_new(o, "patches", ps);
	return o;
}

json_t *sk_seriesjson_series(const struct sk_series *s)
{
	json_t *o = json_object(), *revs = json_array();
	size_t i;

	json_object_set_new(o, "schema", json_string("stablekit.series/1"));
	json_object_set_new(o, "name", sk_json_string(s->slug));
	json_object_set_new(o, "subject", sk_json_string(s->subject));
	json_object_set_new(o, "author", sk_json_string(s->author));
	json_object_set_new(o, "change_id", sk_json_string(s->change_id));
	json_object_set_new(o, "kind", json_string(s->kind ? s->kind : "series"));
	if (s->failed_on)
		json_object_set_new(o, "failed_on", json_string(s->failed_on));
	if (s->picked)
		json_object_set_new(o, "picked", json_string(s->picked));
	for (i = 0; i < s->nr_revs; i++)
		json_array_append_new(revs, sk_seriesjson_revision(&s->revs[i]));
	json_object_set_new(o, "revisions", revs);
	return o;
}

static const struct {
	unsigned int flag;
	const char *name;
} change_names[] = {
	{ SK_CHANGE_ADDED, "added" },
	{ SK_CHANGE_DROPPED, "dropped" },
	{ SK_CHANGE_MOVED, "moved" },
	{ SK_CHANGE_CODE, "code" },
	{ SK_CHANGE_SUBJECT, "subject" },
	{ SK_CHANGE_MESSAGE, "message" },
	{ SK_CHANGE_TRAILERS, "trailers" },
	{ SK_CHANGE_FIXLETS, "fixlets" },
};

json_t *sk_seriesjson_changes(const struct sk_rev_changes *c)
{
	json_t *arr = json_array();
	size_t i, j;

	for (i = 0; i < c->nr; i++) {
		const struct sk_patch_change *pc = &c->items[i];
		const struct sk_series_patch *p = pc->new ? pc->new : pc->old;
		json_t *o = json_object(), *what = json_array();

		json_object_set_new(o, "nr", pc->new ? json_integer(pc->new->nr) : json_null());
		json_object_set_new(o, "old_nr", pc->old ? json_integer(pc->old->nr) : json_null());
		json_object_set_new(o, "subject", sk_json_string(p->subject));
		for (j = 0; j < sizeof(change_names) / sizeof(change_names[0]); j++)
			if (pc->flags & change_names[j].flag)
				json_array_append_new(what, json_string(change_names[j].name));
		json_object_set_new(o, "changes", what);
		json_object_set_new(o, "trailers_added", sk_strvec_array_json(pc->trailers_added, pc->nr_added));
		json_object_set_new(o, "trailers_removed",
				    sk_strvec_array_json(pc->trailers_removed, pc->nr_removed));
		json_array_append_new(arr, o);
	}
	return arr;
}

json_t *sk_seriesjson_lines(const char *text)
{
	json_t *arr = json_array();
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		json_array_append_new(arr, json_stringn(p, len));
		p = nl ? nl + 1 : p + len;
	}
	return arr;
}
