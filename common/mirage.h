/* mirage.h: the whole library, for commands and tests. */
#ifndef MG_MIRAGE_H
#define MG_MIRAGE_H

#include "cli.h"
#include "input.h"
#include "job.h"
#include "parse.h"
#include "sacct.h"
#include "status.h"
#include "stream.h"

#endif /* MG_MIRAGE_H */
