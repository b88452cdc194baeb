/*
 * yaml.h: one YAML document (Slurm's --yaml output) as the json-c tree
 * its --json twin would give, read with libyaml.  Slurm's data_parser
 * writes the same tree in both, with YAML 1.1 tags (!!str, !!int,
 * !!null, !!bool, !!float, !!map, !!seq) on every node.
 */
#ifndef MG_YAML_H
#define MG_YAML_H

#include <stddef.h>

#include <json-c/json.h>

#include "base/status.h"

/*
 * mg_yaml_to_json: the single document of text[0..len) as *out (the
 * caller owns it).  A scalar's type is its tag's, or for an untagged
 * plain scalar YAML 1.1's resolution (null, true/false, integers,
 * floats; anything else a string); quoted scalars are strings.  Aliases
 * are refused, as are a second document and keys that are not scalars.
 * Returns 0, or MG_EFORMAT (d names the line and column) or MG_ENOMEM.
 */
int mg_yaml_to_json(const char *text, size_t len, struct json_object **out,
    struct mg_diag *d);

/*
 * mg_yaml_each: the same, streamed: the document comes from read
 * (filling buf[0..size) with *got bytes, 0 at the end; it returns 0 or
 * a status, d set), and each element of the sequence under the root
 * mapping's key goes to fn as soon as it is complete, borrowed (index
 * from 0; a non-zero return stops the parse with that status); the
 * sequence is left empty in *rest, the rest of the document.  Memory is
 * that of one element.  Returns 0, fn's or read's status, MG_EFORMAT or
 * MG_ENOMEM.
 */
int mg_yaml_each(int (*read)(void *, char *, size_t, size_t *), void *rctx,
    const char *key, int (*fn)(void *, struct json_object *, size_t),
    void *fctx, struct json_object **rest, struct mg_diag *d);

#endif /* MG_YAML_H */
