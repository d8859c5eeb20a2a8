// The rubric the REST rubric tests share (docs/marking/rubrics.md), and its route.

/** Two criteria of 10 points: a full mark is 20; Good + Some is 11 of 20, a pass. */
export const RUBRIC = {
  mapping: 'grade',
  criteria: [
    {
      title: 'Structure',
      description: 'How the work is organised',
      position: 1,
      levels: [
        { title: 'Missing', description: 'No structure', points: 0, position: 1 },
        { title: 'Good', description: 'Clear sections', points: 6, position: 2 },
        { title: 'Excellent', description: 'A pleasure to read', points: 10, position: 3 },
      ],
    },
    {
      title: 'Testing',
      position: 2,
      levels: [
        { title: 'None', points: 0, position: 1 },
        { title: 'Some', points: 5, position: 2 },
        { title: 'Thorough', points: 10, position: 3 },
      ],
    },
  ],
};

export const rubricUrl = (unit: number, td: number) => `/api/units/${unit}/task_definitions/${td}/rubric`;
