/** 'Créer une Carte Membre' (spec §2 Member card creation): after 200/201 the recto and verso. */
import { CreateCardPage } from './CreateCardPage';

export default function CreateMemberPage() {
  return <CreateCardPage mode="member" />;
}
