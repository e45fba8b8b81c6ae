/** 'Créer un QRCode' (spec §2 QR code creation). */
import { CreateCardPage } from './CreateCardPage';

export default function CreateQrPage() {
  return <CreateCardPage mode="qr" />;
}
