import type { DefaultPages } from './types';

export const en_US: DefaultPages = {
  help: {
    title: 'Help',
    body:
      'Kamai pays you for simple tasks, for inviting friends and for the online accounts you link. Everything you earn goes into your wallet in rupees; you withdraw it to your own UPI ID or bank account.\n\n' +
      'Below are answers to the questions people ask most. If yours is not here, raise a complaint from this page: it gets a number, we acknowledge it within 24 hours and resolve it within 15 days. We never ask for your password, your OTP or your UPI PIN.',
    faq: [
      {
        question: 'How do I withdraw my money?',
        answer:
          'Open “My account”, tap “Withdraw”, choose your UPI ID or bank account and enter the amount. Before you confirm, the form shows the fee (if any) and exactly how much will reach your account. You can follow every step in “Withdrawal records”.',
      },
      {
        question: 'Is there a fee?',
        answer:
          'If a withdrawal fee applies, it is shown before you confirm and taken only when the withdrawal is paid. Nothing is charged for a withdrawal that is cancelled or rejected: the whole amount returns to your wallet.',
      },
      {
        question: 'Why is my withdrawal being reviewed?',
        answer:
          'Every withdrawal is checked by our team to protect your money: we confirm the payout account and look for signs of misuse. Most are paid within the time shown on the withdraw form. While it is still pending you can cancel it.',
      },
      {
        question: 'My withdrawal was rejected. What now?',
        answer:
          'The full amount is back in your wallet at once, and the reason is shown in “Withdrawal records” and in “System notices”. Fix what the reason says (for example the account holder name) and request again.',
      },
      {
        question: 'A paid withdrawal has not reached my bank.',
        answer:
          'Open the withdrawal in “Withdrawal records”: a paid withdrawal shows the bank reference (UTR). Give this reference to your bank; it lets them trace the payment. If it still has not arrived after two working days, contact support with the reference.',
      },
      {
        question: 'How are task rewards checked?',
        answer:
          'Some tasks complete on their own (for example your first withdrawal). Others need proof, a screenshot or a link, which our team reviews. The reward is added once the proof is approved; if it is rejected, you see why and can submit again.',
      },
      {
        question: 'How do I delete my account?',
        answer:
          'Open “My account” and choose “Delete account”. Withdraw your balance first: money left in the wallet cannot be paid out after deletion. See “Privacy policy” for what we keep after an account is deleted.',
      },
    ],
  },
  terms: {
    title: 'Terms of use',
    body:
      'These terms apply when you use Kamai. By creating an account you accept them. Please read them with the “Privacy policy”.\n\n' +
      '1. Who may use Kamai. You must be at least 18 years old and resident in India. One person may hold one account. Accounts created with false details, or several accounts for one person, may be closed.\n\n' +
      '2. Your account. Keep your password and one-time codes to yourself. You are responsible for what is done with your account. Tell support at once if you think someone else has used it.\n\n' +
      '3. Earning. Rewards are paid for tasks as described in the app, for invitations under the referral rules shown in the app, and for linked accounts at the published rate. We may change or end a task or rate for the future; rewards already credited stay yours.\n\n' +
      '4. Withdrawals. You may withdraw your balance to a UPI ID or bank account in your own name, within the limits shown in the app. Every withdrawal is reviewed before it is paid. A fee, if any, is shown before you confirm. A rejected or cancelled withdrawal returns the whole amount to your wallet.\n\n' +
      "5. Fair use. Do not use bots, fake proofs, fake accounts or someone else's identity, and do not invite yourself. Rewards obtained this way are reversed and the account may be frozen while we review it. We tell you the reason for every rejection.\n\n" +
      '6. Ending your account. You may delete your account at any time from “My account”. Withdraw your balance first; a balance left at deletion is forfeited. We may close an account that breaks these terms, after telling you why; money earned fairly is paid out first.\n\n' +
      '7. Liability. We take care to pay correctly and on time, but we are not responsible for delays caused by banks, UPI or payment networks. Nothing in these terms limits rights you have under Indian law.\n\n' +
      '8. Complaints and law. Raise a complaint in the app (“Help”, then “Raise a complaint”), or write to support; if you are not satisfied, write to our Grievance Officer (see the “Privacy policy”). These terms are governed by the laws of India.',
    faq: [],
  },
  privacy: {
    title: 'Privacy policy',
    body:
      'This policy explains what personal data Kamai collects, why, how long we keep it and the rights you have under the Digital Personal Data Protection Act, 2023 and the Information Technology Rules, 2021.\n\n' +
      'What we collect. Your mobile number or e-mail (to sign you in and send one-time codes); your password, stored only as a secure hash; your payout accounts (UPI ID, or bank account number, IFSC and holder name) to pay you; your wallet movements, tasks, proofs you upload and invitations; and technical data such as IP address, device type and session times to keep your account safe.\n\n' +
      'Why we use it. To run your account, pay your rewards and withdrawals, check withdrawals for fraud, answer your support requests and meet our legal duties. We do not sell your data and do not use it for advertising.\n\n' +
      'Who we share it with. Payment partners receive only what a payout needs (account details and amount). SMS and e-mail providers receive your number or address to deliver codes. Authorities receive data only when the law requires it.\n\n' +
      'How long we keep it. While your account is open. When you delete your account, your number, e-mail, password, sessions, devices, payout account details, survey answers, notifications and uploaded proofs are erased. What we keep, and why: (1) your wallet movements (ledger entries) and (2) your withdrawals, with amounts, dates and states and the account number cut to its last 4 digits, because accounting and anti-money-laundering laws require money records, for up to 8 years; (3) the record of what our staff did (the audit log), without your contact details, to answer disputes; (4) a keyed hash of your phone number or e-mail (not the number itself), so that first-time rewards and invitation rewards are never paid twice to the same person; (5) for a payout account the bank checked, its last 4 digits and a keyed hash, to detect the same account used again, with the fee paid for the check. None of this shows your name, number or e-mail. You can download all your data from “My account” (“Download my data”) before you delete your account.\n\n' +
      'Your rights. You may see and correct your data in the app, ask us what we hold about you, withdraw consent by deleting your account, and complain to us or to the Data Protection Board of India.\n\n' +
      'Grievance Officer. Under rule 3(2) of the Information Technology (Intermediary Guidelines and Digital Media Ethics Code) Rules, 2021 and section 13 of the Digital Personal Data Protection Act, 2023, you can raise a complaint about the app or your data in the app (“Help”, then “Raise a complaint”) or send it to our Grievance Officer. Every complaint gets a number; we acknowledge it within 24 hours and resolve it within 15 days.',
    faq: [],
  },
};
