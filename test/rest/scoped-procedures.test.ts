// The procedure builders every unit and project operation is made from: unknown ids are 404,
// refused roles 403 with the operation's message, and the record and role reach the procedure.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { z } from 'zod';
import { TRPCError } from '@trpc/server';
import { createContext } from '../../src/trpc/context.ts';
import { createCallerFactory, router } from '../../src/trpc/core.ts';
import { projectQuery, unitMutation, unitQuery } from '../../src/trpc/scopes/index.ts';
import { idField } from '../../src/trpc/fields.ts';
import type { TestEnv } from '../support/env.ts';
import type { People } from '../support/fixtures.ts';
import { freshEachTest } from '../support/suite.ts';
import { employ, enrol, seedUnit } from '../support/seed.ts';
import { Unit } from '../../schema/index.ts';

const test = suite('scoped procedures: unit and project builders');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const probe = router({
  read: unitQuery(z.object({ unit_id: idField() }), { action: 'get_students', refused: (id) => `Couldn't find Unit with id=${id}` }).query(({ ctx }) => ({
    code: ctx.unit.code,
    role: ctx.unitRole,
  })),
  rename: unitMutation(z.object({ id: idField(), name: z.string() }), { field: 'id', action: 'update', refused: 'Not authorised to update a unit' }).mutation(
    async ({ ctx, input }) => {
      ctx.unit.name = input.name;
      await ctx.em.flush();
      if (input.name === 'boom') throw new Error('fails after the change');
      return ctx.unit.name;
    },
  ),
  project: projectQuery(z.object({ id: idField() }), { action: 'assess', refused: 'You cannot assess this project' }).query(({ ctx }) => ({
    role: ctx.projectRole,
    unit: ctx.unit.code,
  })),
});
const callerFor = (creds: { username: string; token: string }) => createCallerFactory(probe)(createContext(env.services, creds));

async function refusal(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    assert.instance(error, TRPCError);
    return { code: (error as TRPCError).code, message: (error as TRPCError).message };
  }
  assert.unreachable('should have been refused');
  return { code: '', message: '' };
}

test('unknown units are 404 before any role is asked; refused roles get 403 with the message', async () => {
  const unit = await seedUnit(env, { code: 'SIT101' });
  await employ(env, people.tutor.user, unit, 'Tutor');
  await enrol(env, people.student.user, unit);
  assert.equal(await refusal(callerFor(people.student.creds).read({ unit_id: 999 })), { code: 'NOT_FOUND', message: 'Unable to find requested Unit' });
  assert.equal(await refusal(callerFor(people.student.creds).read({ unit_id: unit })), { code: 'FORBIDDEN', message: `Couldn't find Unit with id=${unit}` });
  assert.equal(await refusal(callerFor(people.convenor.creds).read({ unit_id: unit })), { code: 'FORBIDDEN', message: `Couldn't find Unit with id=${unit}` });
  assert.equal(await callerFor(people.tutor.creds).read({ unit_id: unit }), { code: 'SIT101', role: 'Tutor' });
  assert.equal(await callerFor(people.admin.creds).read({ unit_id: unit }), { code: 'SIT101', role: 'Admin' });
});

test('a unit mutation loads the unit inside its transaction: a failure leaves it unchanged', async () => {
  const unit = await seedUnit(env, { code: 'SIT102', name: 'Before' });
  await employ(env, people.convenor.user, unit, 'Convenor');
  assert.is(await callerFor(people.convenor.creds).rename({ id: unit, name: 'After' }), 'After');
  await refusal(callerFor(people.convenor.creds).rename({ id: unit, name: 'boom' }));
  assert.is((await env.orm.em.fork().findOneOrFail(Unit, { id: unit })).name, 'After');
  assert.equal(await refusal(callerFor(people.tutor.creds).rename({ id: unit, name: 'X' })), { code: 'FORBIDDEN', message: 'Not authorised to update a unit' });
});

test('projects: the owner is Student, unit staff Tutor (convenors too), admins who are not staff are refused', async () => {
  const unit = await seedUnit(env, { code: 'SIT103' });
  await employ(env, people.convenor.user, unit, 'Convenor');
  const project = await enrol(env, people.student.user, unit);
  assert.equal(await callerFor(people.convenor.creds).project({ id: project }), { role: 'Tutor', unit: 'SIT103' });
  assert.equal(await refusal(callerFor(people.student.creds).project({ id: project })), { code: 'FORBIDDEN', message: 'You cannot assess this project' });
  assert.equal(await refusal(callerFor(people.admin.creds).project({ id: project })), { code: 'FORBIDDEN', message: 'You cannot assess this project' });
  assert.equal(await refusal(callerFor(people.admin.creds).project({ id: 999 })), { code: 'NOT_FOUND', message: 'Unable to find requested Project' });
});

test.run();
