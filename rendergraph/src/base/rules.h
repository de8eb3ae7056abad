/* The graph's rules with ids, one X-macro list (sokol's log items are the
 * model): X(ID, text), the text being what the graph says when the rule
 * decides (a note's or a reason's words) or, for a rule that says
 * nothing, what it keeps true. A rule is checked through RG__RULE(ID,
 * cond), so its code can move and its words change while what names it
 * (the mutation check's `rule` lines in scripts/mutations.txt, tests
 * reading rg__rule_text) still finds it. scripts/check_rules.sh holds the
 * list, the checks and the mutation lines to each other. Not installed.
 */
#ifndef RG_RULES_H
#define RG_RULES_H

#include <stdbool.h>

#define RG__RULES(X)                                                                                          \
    X(MERGE_FORCED_OFF, "merging is off (rg_graph_desc.merge)")                                              \
    X(MERGE_NEEDS_LOCAL_READ, "the device has no dynamicRenderingLocalRead")                                 \
    X(MERGE_DRIVER_DEFAULT, "merging is off by default on this driver (rg_merge_by_default)")                \
    X(MERGE_SAME_AREA, "render areas or layer counts differ")                                                \
    X(MERGE_SAME_SAMPLES, "sample counts differ")                                                            \
    X(MERGE_NO_RESOLVE, "a resolve happens at the end of the rendering instance")                           \
    X(MERGE_TILE_BUDGET, "the colour of a merged instance fits the tile profile's budget")                   \
    X(CULL_UNREAD, "nothing observable reads")                                                               \
    X(CULL_NO_WRITE, "it declares no write (declare side_effects for effects the graph cannot see)")         \
    X(CULL_KEEPS_SIDE_EFFECTS, "a command with side effects is kept, and what it reads")                     \
    X(CULL_KEEPS_BARE_COMMAND, "a user command outside spans that declares no access is kept")               \
    X(CULL_KEEPS_OUTPUTS, "a write to an import or a history resource is observable")                        \
    X(ALIAS_APART_IN_TIME, "resources share memory only when their lifetimes do not overlap")            \
    X(DEDICATED_OUT_OF_POOLS, "a dedicated resource or a history half gets memory of its own")              \
    X(TRANSIENT_DISCARDED, "a transient attachment is discarded at the end of its instance")                \
    X(TRANSIENT_ATTACHMENT_USE_ONLY, "a texture is transient only when every use is as an attachment")      \
    X(IMPORTS_STAY_ON_GRAPHICS, "a command touching an import stays on the graphics queue")                \
    X(OUTSIDE_COMMAND_OUTSIDE_SPANS, "an RG_COMMAND_OUTSIDE command is refused inside a span")               \
    X(NO_HAZARD_INSIDE_A_SPAN, "two commands of a span with a hazard between them are refused")             \
    X(RECORD_DECLARED_ONLY, "a record callback gets only the resources its command declared")               \
    X(MEASURE_KEEPS_FASTER, "the measured queue policy compiles the way it chose")                          \
    X(MEASURE_NEW_DECLARATION, "a new declaration is measured afresh; the same one keeps its choice")       \
    X(MEASURE_TIMINGS_OFF, "with timings off, eligible commands go back on their queues")                   \
    X(LAZY_WHEN_OFFERED, "a transient attachment gets LAZILY_ALLOCATED memory exactly where it is offered") \
    X(PERSISTENT_NEVER_LAZY, "a persistent image or buffer never gets LAZILY_ALLOCATED memory")

#define RG__RULE_ID(id, text) RG__RULE_##id,
typedef enum rg__rule { RG__RULES(RG__RULE_ID) RG__RULE_COUNT } rg__rule;
#undef RG__RULE_ID

/* The rule's text (its notes' words). */
const char *rg__rule_text(rg__rule rule);

/* A rule's check: cond as written. Built with mutation hooks
 * (VKG_MUTATION_HOOKS, the mutation check's builds alone), the rule named
 * by the environment variable RG_MUTATE_RULE is broken: its check yields
 * the opposite, which a test of that rule must notice. */
#ifdef RG_MUTATION_HOOKS
bool rg__rule_broken(rg__rule rule);
#define RG__RULE(id, cond) (rg__rule_broken(RG__RULE_##id) ? !(cond) : (cond))
#else
#define RG__RULE(id, cond) (cond)
#endif

#endif
