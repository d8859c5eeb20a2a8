/** What every CSV upload of a unit's records answers: each data row lands in exactly one list. */
export interface CsvImportResult {
  success: CsvRowResult[];
  errors: CsvRowResult[];
  ignored: CsvRowResult[];
}

export interface CsvRowResult {
  row: Record<string, string>;
  message: string;
}
