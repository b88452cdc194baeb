/* mirage.h: the whole library, for commands and tests. */
#ifndef MG_MIRAGE_H
#define MG_MIRAGE_H

#include "base/cli.h"
#include "io/input.h"
#include "io/job.h"
#include "base/parse.h"
#include "io/sacct.h"
#include "base/status.h"
#include "io/stream.h"

#endif /* MG_MIRAGE_H */
