import * as THREE from 'three';
import * as xb from 'xrblocks';
import {Keyboard} from 'xrblocks/addons/virtualkeyboard/Keyboard.js';

/**
 * A note card: type on the virtual keyboard, Enter saves the line as a note.
 */
class NoteCard extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.state = {draft: '', notes: []};

    this.draftText = new xb.UIText({text: 'Type a note...', style: {fontSize: 26}});
    this.savedText = new xb.UIText({text: 'No notes yet', style: {fontSize: 20}});
    this.keyboard = new Keyboard({
      value: '',
      onValueChange: (value) => this.showDraft(value),
      onSubmit: (value) => this.save(value),
    });
    this.card = new xb.UICard({
      name: 'note-card',
      size: {width: 0.9, height: 'auto'},
      style: {padding: 20, gap: 12, flexDirection: 'column'},
    });
    this.card.add(this.draftText, this.savedText, this.keyboard);
    this.card.position.set(0, xb.user.height - 0.3, -xb.user.panelDistance);
    this.card.userData.xrblocksDevtools = {tag: 'note-card', state: this.state};
    this.add(this.card);
  }

  showDraft(value) {
    this.state.draft = value;
    this.draftText.text = value || 'Type a note...';
  }

  save(value) {
    const note = value.trim();
    if (!note) return;
    this.state.notes.push(note);
    this.savedText.text = 'Saved: ' + this.state.notes.join(' | ');
    this.keyboard.setValue('');
    this.showDraft('');
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new NoteCard());
  xb.init(new xb.Options());
});
