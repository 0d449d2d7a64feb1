import { IFSC_RE } from './formats';

/**
 * Banks by the first four letters of an IFSC (the bank code RBI assigns; the fifth character is 0 and
 * the last six name the branch). The banks most Indians hold accounts with: public sector, private,
 * small finance and payments banks. Codes from RBI's IFSC lists as published by Razorpay's IFSC
 * dataset (https://github.com/razorpay/ifsc, src/banknames.json). A code not listed is still a valid
 * IFSC; the form then shows no bank name. Branch names are not kept here: the full branch list is
 * about 1,70,000 rows and changes monthly (docs/decisions/ifsc-bank-names.md).
 */
export const IFSC_BANKS: Readonly<Record<string, string>> = {
  AIRP: 'Airtel Payments Bank',
  AUBL: 'AU Small Finance Bank',
  BARB: 'Bank of Baroda',
  BDBL: 'Bandhan Bank',
  BKID: 'Bank of India',
  CBIN: 'Central Bank of India',
  CITI: 'Citibank',
  CIUB: 'City Union Bank',
  CNRB: 'Canara Bank',
  CSBK: 'CSB Bank',
  DBSS: 'DBS Bank India',
  DCBL: 'DCB Bank',
  DLXB: 'Dhanlaxmi Bank',
  ESFB: 'Equitas Small Finance Bank',
  ESMF: 'ESAF Small Finance Bank',
  FDRL: 'Federal Bank',
  FINO: 'Fino Payments Bank',
  HDFC: 'HDFC Bank',
  HSBC: 'HSBC',
  IBKL: 'IDBI Bank',
  ICIC: 'ICICI Bank',
  IDFB: 'IDFC FIRST Bank',
  IDIB: 'Indian Bank',
  INDB: 'IndusInd Bank',
  IOBA: 'Indian Overseas Bank',
  IPOS: 'India Post Payments Bank',
  JAKA: 'Jammu & Kashmir Bank',
  JSFB: 'Jana Small Finance Bank',
  KARB: 'Karnataka Bank',
  KKBK: 'Kotak Mahindra Bank',
  KVBL: 'Karur Vysya Bank',
  MAHB: 'Bank of Maharashtra',
  NSPB: 'NSDL Payments Bank',
  PSIB: 'Punjab & Sind Bank',
  PUNB: 'Punjab National Bank',
  PYTM: 'Paytm Payments Bank',
  RATN: 'RBL Bank',
  SBIN: 'State Bank of India',
  SCBL: 'Standard Chartered Bank',
  SIBL: 'South Indian Bank',
  SURY: 'Suryoday Small Finance Bank',
  TMBL: 'Tamilnad Mercantile Bank',
  UBIN: 'Union Bank of India',
  UCBA: 'UCO Bank',
  UJVN: 'Ujjivan Small Finance Bank',
  UTIB: 'Axis Bank',
  UTKS: 'Utkarsh Small Finance Bank',
  YESB: 'Yes Bank',
};

/** The bank and branch code an IFSC names, once it is a well-formed IFSC; the bank is undefined when not listed. */
export function ifscParts(ifsc: string): { bank: string | undefined; branchCode: string } | undefined {
  const value = ifsc.trim().toUpperCase();
  if (!IFSC_RE.test(value)) return undefined;
  return { bank: IFSC_BANKS[value.slice(0, 4)], branchCode: value.slice(5) };
}
