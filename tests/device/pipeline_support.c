/* Helpers of the pipeline tests (pipeline_support.h). */
#include "pipeline_support.h"

#include "device_fixture.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const float pipeline_full_rect[4] = { -1, -1, 1, 1 };

void pipeline_record_state_job(VkCommandBuffer cmd, void *user)
{
    state_job *j = user;
    j->result = test_execute(j->graph, cmd);
}
