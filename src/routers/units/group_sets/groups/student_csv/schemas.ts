// The same inputs and answer as the groups CSV.
export { csvUploadOut, groupSetCsvInput, groupSetCsvUploadInput } from '../csv/schemas.ts';
