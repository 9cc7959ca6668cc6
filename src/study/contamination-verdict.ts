/** A method's decision on one sample: a test at a stated level, or too little power to tell. */
export enum ContaminationVerdict {
  CONTAMINATED = "CONTAMINATED",
  NO_EVIDENCE = "NO_EVIDENCE",
  CANNOT_TELL = "CANNOT_TELL",
}
