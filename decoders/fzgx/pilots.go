package fzgx

// pilotNames names the pilot of each pilot-exclusive machine. The spec's
// Racer Array notes give a pilot the id of that machine (Captain Falcon and
// Blue Falcon are both 6), so the table is keyed by machine id; the pairs
// and spellings are the game's roster (an original custom machine names its
// pilot by the same id in its Custom Machine Data).
var pilotNames = map[int64]string{
	0: "Mighty Gazelle", 1: "Jody Summer", 2: "Dr. Stewart", 3: "Baba", 4: "Samurai Goroh",
	5: "Pico", 6: "Captain Falcon", 7: "Octoman", 8: "Mr. EAD", 9: "James McCloud",
	10: "Billy", 11: "Kate Alen", 12: "Zoda", 13: "Jack Levin", 14: "Bio Rex",
	15: "The Skull", 16: "Antonio Guster", 17: "Beastman", 18: "Leon", 19: "Super Arrow",
	20: "Mrs. Arrow", 21: "Gomar & Shioh", 22: "Silver Neelsen", 23: "Michael Chain", 24: "Blood Falcon",
	25: "John Tanaka", 26: "Draq", 27: "Roger Buster", 28: "Dr. Clash", 29: "Black Shadow",
	30: "Deathborn", 31: "Don Genie", 32: "Digi-Boy", 33: "Dai San Gen", 34: "Spade",
	35: "Daigoroh", 36: "Princia Ramode", 37: "Lily Flyer", 38: "PJ", 39: "QQQ",
	40: "Phoenix",
}

func pilotName(id int64) string { return pilotNames[id] }
