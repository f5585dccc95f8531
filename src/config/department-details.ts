import type { LucideIcon } from 'lucide-react';
import { DEPARTMENTS, type DepartmentKey } from './departments.ts';

/** What a department page shows about its department (product-spec §2, Department page). */
export interface DepartmentDetails {
  key: DepartmentKey;
  label: string;
  title: string;
  description: string;
  icon: LucideIcon;
  /** The six feature lines. */
  features: readonly [string, string, string, string, string, string];
}

const DETAILS: Record<DepartmentKey, Omit<DepartmentDetails, 'key' | 'label' | 'icon'>> = {
  'foster-adopt': {
    title: 'Foster & Adopt Ministry',
    description:
      'Supporting foster and adoptive families in our church and community with care, resources and prayer.',
    features: [
      'Family support and care teams',
      'Licensing and training resources',
      'Respite care coordination',
      'Meal trains and practical help',
      'Partner agency contacts',
      'Prayer and mentoring for families',
    ],
  },
  'r-kids': {
    title: 'R/Kids Ministry',
    description:
      'Helping children from birth through fifth grade know and love Jesus in a safe, welcoming place.',
    features: [
      'Sunday curriculum and lesson plans',
      'Check-in and child safety policies',
      'Volunteer schedules and training',
      'Nursery and preschool care',
      'Family events and VBS',
      'Parent communication',
    ],
  },
  'r-youth': {
    title: 'R/Youth Ministry',
    description:
      'Walking with middle and high school students as they grow in faith, friendship and service.',
    features: [
      'Weekly gatherings and small groups',
      'Camps, retreats and mission trips',
      'Permission and medical release forms',
      'Leader screening and training',
      'Parent updates and calendars',
      'Student leadership development',
    ],
  },
  'creative-media': {
    title: 'Creative Media',
    description: 'Telling our church’s story through design, photography, video and the web.',
    features: [
      'Graphic design and sermon series artwork',
      'Photography and video production',
      'Website and online content',
      'Brand guidelines and templates',
      'Announcement slides and bulletins',
      'Media request tracking',
    ],
  },
  cge: {
    title: 'CGE',
    description:
      'Connecting people to community groups and equipping them to grow together in faith.',
    features: [
      'Community group directory',
      'Leader training and resources',
      'Study guides and curriculum',
      'Group sign-ups and placement',
      'Care and prayer follow-up',
      'Semester planning calendars',
    ],
  },
  'sunday-production': {
    title: 'Sunday Production',
    description:
      'Planning and running Sunday services: stage, sound, lighting, slides and live stream.',
    features: [
      'Service run sheets and cue lists',
      'Audio, lighting and video setups',
      'Live stream checklists',
      'Production team schedules',
      'Equipment inventory and maintenance',
      'Stage plots and input lists',
    ],
  },
  worship: {
    title: 'Worship Ministry',
    description: 'Leading our congregation in worship through music, prayer and the arts.',
    features: [
      'Song lists and set planning',
      'Chord charts and lyrics',
      'Music licensing (CCLI) records',
      'Rehearsal schedules',
      'Musician and vocalist rosters',
      'Worship team development',
    ],
  },
  'elder-board': {
    title: 'Elder Board',
    description: 'Providing spiritual oversight, shepherding and governance for the church.',
    features: [
      'Meeting agendas and minutes',
      'Bylaws and governing policies',
      'Church discipline and care records',
      'Strategic planning documents',
      'Budget review and approval',
      'Confidential pastoral matters',
    ],
  },
  'deacon-board': {
    title: 'Deacon Board',
    description:
      'Serving the practical needs of the church family and the community with compassion.',
    features: [
      'Benevolence requests and fund tracking',
      'Facility and hospitality needs',
      'Visitation and care schedules',
      'Meeting agendas and minutes',
      'Communion and baptism preparation',
      'Community outreach partnerships',
    ],
  },
};

/** Looks up a department by its route key; undefined for an unknown key (Department Not Found). */
export function findDepartment(key: string | undefined): DepartmentDetails | undefined {
  const entry = DEPARTMENTS.find((department) => department.key === key);
  return entry && { key: entry.key, label: entry.label, icon: entry.icon, ...DETAILS[entry.key] };
}
