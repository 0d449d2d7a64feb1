/** WhatsApp's click-to-chat link with a prefilled message (https://faq.whatsapp.com/5913398998672934). */
export function whatsAppLink(text: string): string {
  return `https://wa.me/?text=${encodeURIComponent(text)}`;
}
