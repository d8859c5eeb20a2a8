import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { OUTPUT_COMPARISONS, STEP_OUTCOMES, STEP_TYPES } from '../src/domain/overseer-steps.ts';
import { TASK_STATUSES } from './enums.ts';
import { OverseerAssessment } from './tasks.ts';
import { TaskDefinition } from './units.ts';

/**
 * One step of a task definition's automated assessment (docs/assessment-steps.md): a command run
 * in the sandbox with its own input, expected output, time limit, feedback and effect on the task.
 */
export const OverseerStep = defineEntity({
  name: 'OverseerStep',
  tableName: 'overseer_steps',
  properties: {
    id: p.integer().primary(),
    taskDefinition: () => p.manyToOne(TaskDefinition).deleteRule('cascade').index(),
    name: p.string().length(255),
    displayName: p.string().length(255).nullable(),
    description: p.text().nullable(),
    displayDescription: p.text().nullable(),
    sortOrder: p.integer().default(0),
    enabled: p.boolean().default(true),
    stepType: p.enum(STEP_TYPES).default('command'),
    runCommand: p.text(),
    timeoutMs: p.integer().default(30000),
    stdinInputFile: p.string().length(255).nullable(),
    expectedOutputFile: p.string().length(255).nullable(),
    partialOutputDiff: p.boolean().default(false),
    outputComparison: p.enum(OUTPUT_COMPARISONS).default('exact'),
    feedbackMessage: p.text().nullable(),
    statusOnSuccess: p.enum(TASK_STATUSES).nullable(),
    statusOnFailure: p.enum(TASK_STATUSES).nullable(),
    haltOnSuccess: p.boolean().default(false),
    haltOnFailure: p.boolean().default(false),
    showExpectedOutput: p.boolean().default(false),
    showStdin: p.boolean().default(false),
    showStdout: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
  uniques: [{ properties: ['taskDefinition', 'name'] }],
});
export type IOverseerStep = InferEntity<typeof OverseerStep>;

/**
 * What one step did in one assessment run. The texts are cut at 64 KiB; each sha256 is of the whole
 * text. A re-run replaces the assessment's results. `step` is null once the step is deleted; its name
 * and flags at run time stay here, so old results still read.
 */
export const OverseerStepResult = defineEntity({
  name: 'OverseerStepResult',
  tableName: 'overseer_step_results',
  properties: {
    id: p.integer().primary(),
    assessment: () => p.manyToOne(OverseerAssessment).deleteRule('cascade'),
    step: () => p.manyToOne(OverseerStep).nullable().deleteRule('set null').index(),
    position: p.integer(),
    name: p.string().length(255),
    displayName: p.string().length(255).nullable(),
    outcome: p.enum(STEP_OUTCOMES),
    pass: p.boolean(),
    exitStatus: p.integer().nullable(),
    durationMs: p.integer().nullable(),
    stdout: p.text().nullable(),
    stdoutSha256: p.string().length(64).nullable(),
    stdoutBytes: p.bigint('number').nullable(),
    stdin: p.text().nullable(),
    stdinSha256: p.string().length(64).nullable(),
    expectedOutput: p.text().nullable(),
    expectedOutputSha256: p.string().length(64).nullable(),
    feedbackMessage: p.text().nullable(),
    showExpectedOutput: p.boolean().default(false),
    showStdin: p.boolean().default(false),
    showStdout: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  uniques: [{ properties: ['assessment', 'position'] }],
});
