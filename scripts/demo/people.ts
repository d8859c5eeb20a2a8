// Names for the demo's people: deterministic, varied enough to look like a class list, and
// unique per unit code, so two demo units never share a user.

const FIRST = [
  'Aisha',
  'Ben',
  'Chloe',
  'Daniel',
  'Elif',
  'Farhan',
  'Grace',
  'Hiro',
  'Isla',
  'Jack',
  'Kavya',
  'Liam',
  'Mei',
  'Noah',
  'Olivia',
  'Priya',
  'Quinn',
  'Ravi',
  'Sofia',
  'Tariq',
  'Uma',
  'Vikram',
  'Wen',
  'Xavier',
  'Yasmin',
  'Zac',
  'Amelia',
  'Bao',
  'Charlotte',
  'Dev',
  'Emily',
  'Finn',
  'Hana',
  'Ibrahim',
  'Jade',
  'Kai',
  'Lucy',
  'Mohammed',
  'Nina',
  'Oscar',
];
const LAST = [
  'Nguyen',
  'Smith',
  'Williams',
  'Chen',
  'Brown',
  'Patel',
  'Jones',
  'Kim',
  'Taylor',
  'Singh',
  'Wilson',
  'Li',
  'Martin',
  'Khan',
  'Anderson',
  'Wang',
  'Thompson',
  'Ali',
  'White',
  'Tran',
  "O'Brien",
  'Kelly',
  'Zhang',
  'Murphy',
  'Sharma',
  'Walker',
  'Lee',
  'Harris',
  'Costa',
  'Ryan',
  'Young',
  'King',
  'Rossi',
  'Scott',
  'Huang',
  'Green',
  'Baker',
  'Adams',
  'Nelson',
  'Hill',
];

export interface DemoPerson {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  studentId?: string;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function person(prefix: string, local: string, i: number, domain: string): DemoPerson {
  const username = `${prefix}.${local}`;
  // 40 x 40 names: first and last move at different rates, so pairs repeat only every 1,600.
  return { username, email: `${username}@${domain}`, firstName: FIRST[i % FIRST.length]!, lastName: LAST[(i + Math.floor(i / FIRST.length)) % LAST.length]! };
}

export function convenorOf(code: string): DemoPerson {
  return { ...person(code.toLowerCase(), 'convenor', 7, 'staff.example.edu'), firstName: 'Morgan', lastName: 'Convenor' };
}

export function tutorsOf(code: string, count: number): DemoPerson[] {
  const width = Math.max(2, String(count).length);
  return Array.from({ length: count }, (_, i) => person(code.toLowerCase(), `tutor${pad(i + 1, width)}`, i * 3 + 11, 'staff.example.edu'));
}

export function studentsOf(code: string, count: number): DemoPerson[] {
  const width = Math.max(4, String(count).length);
  return Array.from({ length: count }, (_, i) => ({
    ...person(code.toLowerCase(), `s${pad(i + 1, width)}`, i, 'students.example.edu'),
    studentId: `${code}-${pad(i + 1, width)}`,
  }));
}
