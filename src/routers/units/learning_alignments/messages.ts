// The refusals of the alignment procedures' scopes, in the original's words (learning_alignment_api.rb);
// the operations' own are in src/operations/units/learning_alignments/alignments-for-caller.ts.
export const NOT_IN_UNIT = 'You are not authorised to access this unit.';
export const CANNOT_READ_STATS = 'You are not authorised to access these task alignments.';

export const TAG = 'Learning alignments';
