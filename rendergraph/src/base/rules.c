/* The rules' texts, and the mutation hook that breaks one by id
 * (base/rules.h). */
#include "base/rules.h"

#include <stdlib.h>
#include <string.h>

#define RG__RULE_TEXT(id, text) [RG__RULE_##id] = text,
static const char *const texts[RG__RULE_COUNT] = {RG__RULES(RG__RULE_TEXT)};
#undef RG__RULE_TEXT

const char *rg__rule_text(rg__rule rule) { return (unsigned)rule < RG__RULE_COUNT ? texts[rule] : "unknown rule"; }

#ifdef RG_MUTATION_HOOKS
#define RG__RULE_NAME(id, text) [RG__RULE_##id] = #id,
static const char *const names[RG__RULE_COUNT] = {RG__RULES(RG__RULE_NAME)};
#undef RG__RULE_NAME

bool rg__rule_broken(rg__rule rule)
{
    const char *broken = getenv("RG_MUTATE_RULE");
    return broken && (unsigned)rule < RG__RULE_COUNT && strcmp(broken, names[rule]) == 0;
}
#endif
