/*
 * yaml.h: one YAML document (Slurm's --yaml output) as the json-c tree
 * its --json twin would give, streamed through libyaml's events.  Slurm's data_parser
 * writes the same tree in both, with YAML 1.1 tags (!!str, !!int,
 * !!null, !!bool, !!float, !!map, !!seq) on every node.
 */
#ifndef MG_YAML_H
#define MG_YAML_H

#include <stddef.h>

#include <json-c/json.h>

#include "base/status.h"

/*
 * mg_yaml_each: the single document that read gives (filling
 * buf[0..size) with *got bytes, 0 at the end; it returns 0 or a status,
 * d set), streamed: each element of the sequence under the root
 * mapping's key goes to fn as soon as it is complete, borrowed (index
 * from 0; a non-zero return stops the parse with that status), and the
 * rest of the document, that sequence left empty, is *rest (the caller
 * owns it).  Memory is that of one element.  A scalar's type is its
 * tag's, or for an untagged plain scalar YAML 1.1's resolution (null,
 * true/false, integers, floats; anything else a string); quoted scalars
 * are strings.  Aliases are refused, as are a second document and keys
 * that are not scalars.  Returns 0, fn's or read's status, MG_EFORMAT
 * (d names the line and column) or MG_ENOMEM.
 */
int mg_yaml_each(int (*read)(void *, char *, size_t, size_t *), void *rctx,
    const char *key, int (*fn)(void *, struct json_object *, size_t),
    void *fctx, struct json_object **rest, struct mg_diag *d);

#endif /* MG_YAML_H */
