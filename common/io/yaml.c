/*
 * yaml.c: a YAML document as a json-c tree; see yaml.h.  libyaml's event
 * parser feeds a stack of open mappings and sequences.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <yaml.h>

#include "io/yaml.h"

#define MAXDEPTH 256		/* Slurm's documents nest about 8 deep */

struct level {
	struct json_object *o;	/* an object or an array */
	char *key;		/* an object's key awaiting its value */
};

#define TAG(x) "tag:yaml.org,2002:" x

static int
is_int(const char *s, int64_t *v)
{
	char *end;
	long long x;

	if (*s == '\0')
		return 0;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (*end != '\0' || errno != 0)
		return 0;
	*v = x;
	return 1;
}

static int
is_float(const char *s, double *v)
{
	char *end;
	const char *t = s + (*s == '-' || *s == '+');

	if (strcasecmp(t, ".inf") == 0) {
		*v = *s == '-' ? -HUGE_VAL : HUGE_VAL;
		return 1;
	}
	if (strcasecmp(s, ".nan") == 0) {
		*v = NAN;
		return 1;
	}
	if (strpbrk(s, "0123456789") == NULL || strpbrk(s, "xXpP"))
		return 0;	/* strtod's hex and words are not YAML's */
	errno = 0;
	*v = strtod(s, &end);
	return *end == '\0' && errno == 0;
}

static int
is_bool(const char *s, int *v)
{
	static const char *yes[] = { "true", "yes", "on" };
	static const char *no[] = { "false", "no", "off" };
	size_t i;

	for (i = 0; i < 3; i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return *v = 1, 1;
		if (strcasecmp(s, no[i]) == 0)
			return *v = 0, 1;
	}
	return 0;
}

static int
is_null(const char *s)
{
	return *s == '\0' || strcmp(s, "~") == 0 || strcasecmp(s, "null") == 0;
}

/* a scalar's value; *out NULL is null.  0, or -1 for a tag it breaks */
static int
scalar(const yaml_event_t *e, struct json_object **out)
{
	const char *s = (const char *)e->data.scalar.value;
	const char *tag = (const char *)e->data.scalar.tag;
	int plain = e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE, b;
	int64_t i;
	double f;

	*out = NULL;
	if (tag == NULL && !plain)
		tag = TAG("str");
	if (tag == NULL) {	/* resolved as YAML 1.1 does */
		if (is_null(s))
			return 0;
		if (is_bool(s, &b))
			*out = json_object_new_boolean(b);
		else if (is_int(s, &i))
			*out = json_object_new_int64(i);
		else if (is_float(s, &f))
			*out = json_object_new_double(f);
		else
			*out = json_object_new_string_len(s,
			    (int)e->data.scalar.length);
	} else if (strcmp(tag, TAG("null")) == 0) {
		return is_null(s) ? 0 : -1;
	} else if (strcmp(tag, TAG("bool")) == 0) {
		if (!is_bool(s, &b))
			return -1;
		*out = json_object_new_boolean(b);
	} else if (strcmp(tag, TAG("int")) == 0) {
		if (!is_int(s, &i))
			return -1;
		*out = json_object_new_int64(i);
	} else if (strcmp(tag, TAG("float")) == 0) {
		if (!is_float(s, &f))
			return -1;
		*out = json_object_new_double(f);
	} else {		/* !!str, and tags of no meaning here */
		*out = json_object_new_string_len(s,
		    (int)e->data.scalar.length);
	}
	return 0;
}

static int
fail(struct mg_diag *d, const yaml_mark_t *m, const char *what)
{
	return mg_diag_set(d, MG_EFORMAT, "YAML: %s at line %zu, column %zu",
	    what, m->line + 1, m->column + 1);
}

/* o (owned; NULL is null) becomes the value of the open container, or
 * its key; 0 or MG_ENOMEM */
static int
put(struct level *st, int depth, struct json_object *o,
    struct json_object **root, struct mg_diag *d)
{
	struct level *l;
	int rv = 0;

	if (depth == 0) {
		*root = o;
		return 0;
	}
	l = &st[depth - 1];
	if (json_object_is_type(l->o, json_type_array))
		rv = json_object_array_add(l->o, o);
	else if (l->key == NULL) {	/* a key: its text */
		l->key = strdup(o == NULL ? "" : json_object_is_type(o,
		    json_type_string) ? json_object_get_string(o) :
		    json_object_to_json_string(o));
		json_object_put(o);
		return l->key ? 0 : mg_diag_set(d, MG_ENOMEM, "out of memory");
	} else {
		rv = json_object_object_add(l->o, l->key, o);
		free(l->key);
		l->key = NULL;
	}
	if (rv != 0) {
		json_object_put(o);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * The events of p into a tree; when key is given, the elements of the
 * root mapping's sequence under key go to fn one by one as they close
 * (and are released after it), and the sequence stays empty.
 */
static int
build(yaml_parser_t *p, const int *rstatus, const char *key,
    int (*fn)(void *, struct json_object *, size_t), void *ctx,
    struct json_object **out, struct mg_diag *d)
{
	yaml_event_t e;
	struct level st[MAXDEPTH];
	struct json_object *root = NULL, *o;
	int depth = 0, docs = 0, done = 0, rv = 0, i;
	int streamed = -1;	/* the depth of the streamed sequence */
	size_t nth = 0;

	*out = NULL;
	while (!done && rv == 0) {
		if (!yaml_parser_parse(p, &e)) {
			rv = *rstatus != 0 ? *rstatus :	/* d is set */
			    p->error == YAML_MEMORY_ERROR ? mg_diag_set(d,
			    MG_ENOMEM, "out of memory") : fail(d,
			    &p->problem_mark, p->problem ? p->problem :
			    "not YAML");
			break;
		}
		switch (e.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs > 1)
				rv = fail(d, &e.start_mark, "a second document "
				    "(one document per input)");
			break;
		case YAML_ALIAS_EVENT:
			rv = fail(d, &e.start_mark, "an alias (Slurm writes "
			    "none)");
			break;
		case YAML_SCALAR_EVENT:
			if (scalar(&e, &o) != 0) {
				rv = fail(d, &e.start_mark, "a value that is "
				    "not of its tag's type");
				break;
			}
			if (depth - 1 == streamed && depth > 0) {
				rv = fn(ctx, o, nth++);
				json_object_put(o);
				break;
			}
			rv = put(st, depth, o, &root, d);
			break;
		case YAML_MAPPING_START_EVENT:
		case YAML_SEQUENCE_START_EVENT:
			if (depth > 0 && json_object_is_type(st[depth - 1].o,
			    json_type_object) && st[depth - 1].key == NULL) {
				rv = fail(d, &e.start_mark, "a key that is not "
				    "a scalar");
				break;
			}
			if (depth == MAXDEPTH) {
				rv = fail(d, &e.start_mark, "nested too deep");
				break;
			}
			o = e.type == YAML_MAPPING_START_EVENT ?
			    json_object_new_object() : json_object_new_array();
			if (o == NULL) {
				rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
				break;
			}
			if (key != NULL && depth == 1 && streamed < 0 &&
			    e.type == YAML_SEQUENCE_START_EVENT &&
			    json_object_is_type(st[0].o, json_type_object) &&
			    strcmp(st[0].key, key) == 0)
				streamed = depth;
			st[depth].o = o;
			st[depth].key = NULL;
			depth++;
			break;
		case YAML_MAPPING_END_EVENT:
		case YAML_SEQUENCE_END_EVENT:
			o = st[--depth].o;
			free(st[depth].key);
			if (depth - 1 == streamed && depth > 0) {
				rv = fn(ctx, o, nth++);
				json_object_put(o);
				break;
			}
			if (depth == streamed)
				streamed = -2;	/* closed: once only */
			rv = put(st, depth, o, &root, d);
			break;
		default:
			break;
		}
		yaml_event_delete(&e);
	}
	for (i = 0; i < depth; i++) {	/* what an error left open: each */
		free(st[i].key);	/* joins its parent when closed */
		json_object_put(st[i].o);
	}
	if (rv == 0 && docs == 0)
		rv = mg_diag_set(d, MG_EFORMAT, "YAML: no document");
	if (rv != 0) {
		json_object_put(root);
		return rv;
	}
	*out = root;
	return 0;
}

struct reader {
	int (*read)(void *, char *, size_t, size_t *);
	void *ctx;
	int status;		/* read's, when it failed */
};

static int
read_handler(void *data, unsigned char *buf, size_t size, size_t *got)
{
	struct reader *r = data;

	r->status = r->read(r->ctx, (char *)buf, size, got);
	return r->status == 0;
}

int
mg_yaml_each(int (*read)(void *, char *, size_t, size_t *), void *rctx,
    const char *key, int (*fn)(void *, struct json_object *, size_t),
    void *fctx, struct json_object **rest, struct mg_diag *d)
{
	yaml_parser_t p;
	struct reader r = { read, rctx, 0 };
	int rv;

	*rest = NULL;
	if (!yaml_parser_initialize(&p))
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	yaml_parser_set_input(&p, read_handler, &r);
	rv = build(&p, &r.status, key, fn, fctx, rest, d);
	yaml_parser_delete(&p);
	return rv;
}
